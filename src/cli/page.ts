/** The minimal search page `site-search dev` serves at `/`: an input, results as you type, snippets with <mark>. */
export function devPage(apiRoute: string): string {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>site-search dev</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
  input { width: 100%; font: inherit; padding: .6rem .8rem; border: 1px solid #bbb; border-radius: .4rem; box-sizing: border-box; }
  ol { list-style: none; padding: 0; } li { margin: 1.2rem 0; }
  a { font-weight: 600; } small { color: #666; margin-left: .5rem; } p { margin: .2rem 0; color: #333; }
  mark { background: #ffe58a; } #status { color: #666; }
</style>
<h1>site-search <small>dev</small></h1>
<input id="q" type="search" placeholder="Search…" autofocus autocomplete="off">
<p id="status"></p>
<ol id="results"></ol>
<script type="module">
  const api = ${JSON.stringify(apiRoute)};
  const input = document.getElementById('q'), list = document.getElementById('results'), status = document.getElementById('status');
  let seq = 0;
  async function search() {
    const q = input.value, mine = ++seq;
    const res = await fetch(api + '?q=' + encodeURIComponent(q) + '&limit=20');
    const body = await res.json();
    if (mine !== seq) return;
    if (!res.ok) { status.textContent = body.error; list.replaceChildren(); return; }
    status.textContent = q.trim().length < 2 ? '' : body.results.length + ' results';
    list.replaceChildren(...body.results.map((r) => {
      const li = document.createElement('li'), a = document.createElement('a'), meta = document.createElement('small'), p = document.createElement('p');
      a.href = r.url; a.textContent = (r.emoji ? r.emoji + ' ' : '') + r.title;
      meta.textContent = r.type + (r.date ? ' · ' + r.date : '') + ' · ' + r.score.toFixed(2);
      p.innerHTML = r.snippet; // escaped by the server except <mark>
      li.append(a, meta, p);
      return li;
    }));
  }
  input.addEventListener('input', search);
  if (location.hash.length > 1) { input.value = decodeURIComponent(location.hash.slice(1)); search(); }
</script>
</html>
`;
}
