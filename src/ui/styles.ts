/**
 * The element's shadow stylesheet. Public knobs are the `--site-search-*` custom properties (they pierce the shadow
 * root because custom properties inherit) and the `::part()` names; the `--ss-*` names are private shorthands.
 * Defaults follow `prefers-color-scheme`; a site with its own dark-mode switch sets the public properties instead.
 */
const SEARCH_ICON =
  "url(\"data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='black' stroke-width='2.2' stroke-linecap='round'><circle cx='10.5' cy='10.5' r='6.5'/><path d='m20 20-4.8-4.8'/></svg>\")";

export const STYLES = `
:host{
--ss-bg:var(--site-search-bg,#fff);
--ss-fg:var(--site-search-fg,#1a1d23);
--ss-muted:var(--site-search-muted,#5d6675);
--ss-border:var(--site-search-border,#d9dde4);
--ss-accent:var(--site-search-accent,#4f46e5);
--ss-on-accent:var(--site-search-on-accent,#fff);
--ss-mark:var(--site-search-mark,#fde68a);
--ss-error:var(--site-search-error,#c0262d);
--ss-radius:var(--site-search-radius,10px);
--ss-hover:color-mix(in srgb,var(--ss-fg) 5%,var(--ss-bg));
--ss-active:color-mix(in srgb,var(--ss-accent) 11%,var(--ss-bg));
display:block;position:relative;color:var(--ss-fg);line-height:1.45;text-align:start
}
@media (prefers-color-scheme:dark){:host{
--ss-bg:var(--site-search-bg,#1b1e25);
--ss-fg:var(--site-search-fg,#e6e8ee);
--ss-muted:var(--site-search-muted,#9aa3b3);
--ss-border:var(--site-search-border,#353a46);
--ss-accent:var(--site-search-accent,#8f96ff);
--ss-on-accent:var(--site-search-on-accent,#14161c);
--ss-mark:var(--site-search-mark,#6e5b0d);
--ss-error:var(--site-search-error,#ff8a8f)
}}
:host([hidden]),[hidden]{display:none!important}
*{box-sizing:border-box}
.box{position:relative}
.box:before{content:"";position:absolute;inset-inline-start:.8em;top:50%;width:1.1em;height:1.1em;translate:0 -50%;background:var(--ss-muted);mask:${SEARCH_ICON} center/contain no-repeat;pointer-events:none}
.box:focus-within:before{background:var(--ss-accent)}
input{width:100%;margin:0;font:inherit;color:inherit;background:var(--ss-bg);border:1px solid var(--ss-border);border-radius:var(--ss-radius);padding:.65em 2.4em;padding-inline-end:2.9em;outline:0;box-shadow:0 1px 2px #0000000d;transition:border-color .15s,box-shadow .15s;appearance:none}
input::placeholder{color:var(--ss-muted);opacity:1}
input::-webkit-search-cancel-button{appearance:none}
input:hover{border-color:color-mix(in srgb,var(--ss-accent) 45%,var(--ss-border))}
input:focus{border-color:var(--ss-accent);box-shadow:0 0 0 3px color-mix(in srgb,var(--ss-accent) 25%,transparent)}
kbd{position:absolute;inset-inline-end:.75em;top:50%;translate:0 -50%;min-width:1.7em;text-align:center;font:500 .75em/1 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--ss-muted);border:1px solid var(--ss-border);border-bottom-width:2px;border-radius:5px;padding:.3em .4em;pointer-events:none}
kbd:empty,input:focus+kbd,input:not(:placeholder-shown)+kbd{display:none}
.panel{position:absolute;z-index:var(--site-search-z-index,50);top:calc(100% + 6px);left:0;right:0;max-height:min(70vh,34em);overflow:auto;overscroll-behavior:contain;padding:.4em;background:var(--ss-bg);border:1px solid var(--ss-border);border-radius:calc(var(--ss-radius) + 2px);box-shadow:0 16px 40px -12px #0003,0 2px 6px #0000000f}
.panel.inline{position:static;margin-top:.75em;max-height:none;box-shadow:none}
.panel:before{content:"";position:absolute;top:0;left:0;right:0;height:2px;opacity:0;background:linear-gradient(90deg,transparent,var(--ss-accent),transparent) -50% 0/50% 100% no-repeat}
.panel[aria-busy]:before{opacity:1;animation:ss-load 1s linear infinite}
@keyframes ss-load{to{background-position:150% 0}}
.chips{display:flex;flex-wrap:wrap;gap:.4em;padding:.35em .4em .45em}
button{font:inherit;color:inherit;background:none;border:0;margin:0;cursor:pointer}
.chip{font-size:.8em;font-weight:500;line-height:1.5;padding:.2em .8em;border:1px solid var(--ss-border);border-radius:99px;color:var(--ss-muted);text-transform:capitalize;transition:color .15s,background .15s,border-color .15s}
.tags .chip{text-transform:none}
.chip:hover{color:var(--ss-fg);border-color:color-mix(in srgb,var(--ss-accent) 50%,var(--ss-border))}
.chip[aria-pressed=true]{color:var(--ss-on-accent);background:var(--ss-accent);border-color:var(--ss-accent)}
:focus-visible{outline:2px solid var(--ss-accent);outline-offset:2px}
input:focus-visible{outline:0}
.status{font-size:.8em;color:var(--ss-muted);padding:.35em .6em .3em}
.status:empty{display:none}
.status b{color:var(--ss-fg);font-weight:600}
.empty,.error{padding:1.2em .6em;text-align:center;font-size:.9em}
.error{color:var(--ss-error)}
ul{list-style:none;margin:0;padding:0}
[role=option]{border-radius:8px;scroll-margin:.4em}
li+li{margin-top:2px}
[role=option]:hover{background:var(--ss-hover)}
[aria-selected=true],[aria-selected=true]:hover{background:var(--ss-active)}
.row{display:grid;grid-template-columns:2.1em minmax(0,1fr);gap:.15em .75em;padding:.6em .7em;color:inherit;text-decoration:none;border-radius:inherit}
.emoji{grid-row:span 2;display:grid;place-items:center;width:2.1em;height:2.1em;margin-top:.05em;border-radius:8px;background:color-mix(in srgb,var(--ss-fg) 6%,transparent);font-size:1em;line-height:1}
.head{display:flex;flex-wrap:wrap;align-items:baseline;gap:.1em .45em}
.title{font-weight:600}
[aria-selected=true] .title{color:var(--ss-accent)}
.section{color:var(--ss-muted);font-size:.9em}
.section:before{content:"› ";opacity:.7}
.section:dir(rtl):before{content:"‹ "}
.sub{grid-template-columns:minmax(0,1fr);padding:.3em .7em .35em;padding-inline-start:3.55em}
.sub .snippet{grid-column:1;-webkit-line-clamp:1}
.meta{display:flex;gap:.5em;margin-inline-start:auto;font-size:.75em;color:var(--ss-muted);white-space:nowrap}
.type{text-transform:capitalize;padding:0 .45em;border:1px solid var(--ss-border);border-radius:4px}
.snippet{grid-column:2;font-size:.875em;line-height:1.5;color:color-mix(in srgb,var(--ss-fg) 78%,var(--ss-bg));overflow-wrap:anywhere;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden}
mark{color:inherit;background:var(--ss-mark);border-radius:3px;padding:0 .12em;box-decoration-break:clone;-webkit-box-decoration-break:clone}
[part~=recent]{display:flex;align-items:center}
.recent{flex:1;padding:.5em .7em;overflow-wrap:anywhere}
.recent:before{content:"↺";display:inline-block;width:1.6em;color:var(--ss-muted)}
.remove{padding:.3em .65em;border-radius:6px;color:var(--ss-muted);cursor:pointer}
.remove:hover{color:var(--ss-fg);background:var(--ss-hover)}
.more{display:block;width:100%;margin-top:.3em;padding:.55em;border-radius:8px;font-size:.875em;font-weight:500;color:var(--ss-accent)}
.more:hover{background:var(--ss-hover)}
@media (pointer:coarse){kbd{display:none}}
@media (prefers-reduced-motion:reduce){*,:before{transition:none!important;animation:none!important}}
`;
