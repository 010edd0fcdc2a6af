/**
 * Words that carry little on their own: articles, pronouns, auxiliaries, prepositions and the forms questions are asked
 * in ("how do I", "which", "what is"), in the languages documentation sites are most often written in. A page is
 * not found by them (they are on nearly every page) and missing one does not make a page a worse answer; they still
 * count when a page holds every word of the query (docs/ranking.md, "Coverage").
 *
 * Negations ("not", "no") are not filler: they are what an error message turns on ("window is not defined").
 *
 * One set for every language: a word that is filler in one language and content in another is left out (English
 * "die", "come", "son", "fine" stay content), since the query's language is not known from its type name.
 */
const FILLER = new Set(
  [
    // English
    'a an the and or but of to in on at by for with from into onto about as is are was were be been being am',
    'do does did doing done have has had i me my mine we us our you your it its this that these those they them their',
    'he she his her him how what which who whom whose when where why can could should would will shall may might must',
    'there here then than so such very just also too yes if any some each every all other own same',
    'please want wanna need needs get gets got make makes using use via way ways',
    // French
    'le la les un une des du de d l au aux et ou en dans sur pour par avec sans est sont être je tu il elle nous vous',
    'ils elles mon ma mes ton ta tes sa ses notre nos votre vos leur leurs ce cet cette ces comment quel quelle',
    'quels quelles qui que quoi où pourquoi quand faire fait peut puis',
    // German
    'der das den dem des ein eine einen einem einer und oder ist sind sein ich du er sie es wir ihr mein meine',
    'wie was welche welcher welches wer wo warum wann mit für auf im zu zum zur von vom kann',
    // Spanish, Portuguese, Italian
    'el los las una unos unas y o es yo mi mis tu tus su sus cómo como qué cual cuál quién dónde por para con',
    'um uma uns umas os e é são eu meu minha seu sua onde porque com',
    'il lo gli uno ed è sono io mio mia tuo tua suo sua cosa quale chi dove perché per con',
  ]
    .join(' ')
    .split(' '),
);

/** Whether a query word (lowercase, as the query holds it) carries little on its own. */
export function isFiller(word: string): boolean {
  return FILLER.has(word);
}
