/**
 * The page's stylesheet: system fonts only (works offline), light and dark
 * from `prefers-color-scheme`, one column on a phone, visible focus. Inlined
 * and allowed by its hash in the Content-Security-Policy.
 */
export const STYLES = `
:root{color-scheme:light dark;--bg:#f7f7f8;--panel:#ffffff;--text:#1b1d21;--muted:#4b5160;--line:#d9dce3;--accent:#0b57d0;--accent-text:#ffffff;--chip:#eef1f6;--warn:#8a4b00;--ok:#17663a;--code:#f0f2f5;--focus:#c2410c}
@media (prefers-color-scheme:dark){:root{--bg:#111317;--panel:#1a1d23;--text:#e8eaee;--muted:#aeb4c0;--line:#343a45;--accent:#8ab4f8;--accent-text:#0d1117;--chip:#262b34;--warn:#f0b35c;--ok:#6fd19a;--code:#20242c;--focus:#fdba74}}
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:var(--bg);color:var(--text);line-height:1.5;-webkit-text-size-adjust:100%}
body{margin:0}
a{color:var(--accent)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.9em}
code{background:var(--code);padding:.05em .3em;border-radius:4px;overflow-wrap:anywhere}
pre{background:var(--code);padding:.75rem;border-radius:6px;overflow-x:auto;margin:.5rem 0;white-space:pre-wrap}
pre code{background:none;padding:0;overflow-wrap:anywhere}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-9999px}
.skip:focus{left:1rem;top:1rem;background:var(--panel);padding:.5rem;z-index:2}
.top{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-end;justify-content:space-between;padding:1.25rem clamp(1rem,4vw,2.5rem);border-bottom:1px solid var(--line);background:var(--panel)}
.top h1{margin:0;font-size:1.6rem}
.top p{margin:.25rem 0 0;color:var(--muted)}
.top nav a{margin-left:.75rem}
main{max-width:78rem;margin:0 auto;padding:1rem clamp(1rem,4vw,2.5rem) 3rem;display:grid;gap:1.25rem;grid-template-columns:minmax(0,1fr)}
@media (min-width:64rem){main{grid-template-columns:minmax(0,3fr) minmax(0,2fr)}#tools{grid-column:1 / -1}}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem}
h2{margin:.25rem 0 .75rem;font-size:1.25rem}
h3{margin:1rem 0 .5rem;font-size:1.05rem}
fieldset{border:0;margin:0;padding:0}
legend{font-weight:600;margin-bottom:.5rem}
.ts{display:grid;grid-template-columns:auto minmax(0,1fr) auto;gap:.15rem .6rem;padding:.6rem 0;border-top:1px solid var(--line)}
.ts input{margin:.3rem 0 0;width:1.15rem;height:1.15rem;accent-color:var(--accent)}
.ts label{font-weight:600;cursor:pointer}
.ts .desc,.ts .meta{grid-column:2 / -1;margin:0;color:var(--muted);font-size:.92rem}
.ts .tokens{white-space:nowrap;font-variant-numeric:tabular-nums;color:var(--muted)}
.ts.host-tool::before{content:"";width:1.15rem}
.badge{display:inline-block;font-size:.78rem;font-weight:600;padding:.05rem .45rem;border-radius:999px;background:var(--chip);color:var(--text);margin:0 .25rem .15rem 0;border:1px solid var(--line)}
.badge.warn{color:var(--warn)}
.badge.ok{color:var(--ok)}
.summary{margin-top:1rem;padding:.75rem 1rem;border-radius:8px;background:var(--chip)}
.summary p{margin:.15rem 0}
.total{font-size:1.5rem;font-variant-numeric:tabular-nums}
dl.urls{margin:0}
dl.urls dt{font-weight:600;margin-top:.5rem}
dl.urls dd{margin:0;display:flex;gap:.5rem;align-items:flex-start}
dl.urls dd code{flex:1;padding:.4rem .5rem;display:block}
button{font:inherit;font-size:.9rem;padding:.3rem .75rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);cursor:pointer}
button.secondary{background:transparent;color:var(--accent)}
ul.chips{list-style:none;padding:0;margin:.25rem 0;display:flex;flex-wrap:wrap;gap:.35rem}
ul.chips li{background:var(--chip);border-radius:6px;padding:.1rem .45rem;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
details{border-top:1px solid var(--line);padding:.5rem 0}
summary{cursor:pointer;font-weight:600;padding:.2rem 0}
.where,.token{color:var(--muted);font-size:.9rem;margin:.25rem 0}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.search{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin-bottom:.5rem}
.search input{font:inherit;padding:.4rem .6rem;border-radius:6px;border:1px solid var(--muted);background:var(--panel);color:var(--text);min-width:min(100%,22rem)}
.tool-list{list-style:none;padding:0;margin:0;display:grid;gap:.6rem;grid-template-columns:repeat(auto-fill,minmax(min(100%,20rem),1fr))}
.tool{border:1px solid var(--line);border-radius:8px;padding:.6rem .75rem}
.tool h4{margin:0 0 .25rem;font-size:1rem}
.tool p{margin:.25rem 0;font-size:.92rem}
.tool .meta{color:var(--muted);font-size:.85rem}
.muted{color:var(--muted)}
[hidden]{display:none !important}
footer{text-align:center;color:var(--muted);font-size:.85rem;padding:0 1rem 2rem}
`;
