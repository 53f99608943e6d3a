"""The page's one stylesheet, inline: light by default, dark when the reader's system asks.

Colours are chosen for at least 4.5:1 contrast on their background in both schemes. Fonts are
the reader's own (system-ui): a web font would be a request, or a large inline blob.
"""

from __future__ import annotations

from collections.abc import Mapping

from tribunalbot.page.avatars import Avatar

BASE_CSS = """
:root{color-scheme:light dark;--bg:#ffffff;--fg:#1e1f22;--muted:#4e5058;--card:#f2f3f5;
--line:#d4d7dc;--accent:#3c45a5;--bad:#a4161a;--good:#17672e;--quote:#e3e5e8;--hl:#fff0a8;
--add:#e3f4e8;--del:#fbe8e6;--shade:rgba(0,0,0,.22)}
@media (prefers-color-scheme:dark){:root{--bg:#1e1f22;--fg:#dbdee1;--muted:#a3a6aa;
--card:#2b2d31;--line:#45474d;--accent:#a5acf9;--bad:#ff9c94;--good:#80e0a5;--quote:#383a40;
--hl:#4d4300;--add:#1d3526;--del:#3f2220;--shade:rgba(0,0,0,.7)}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--fg)}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
main,header.top,footer{max-width:52rem;margin:0 auto;padding:0 1rem}
header.top{padding-top:1.5rem}
h1{font-size:1.7rem;margin:.2rem 0 .4rem}
h2{font-size:1.3rem;margin:2.2rem 0 .8rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
a{color:var(--accent)}
.meta,.note{color:var(--muted)}
.skip{position:absolute;left:-9999px}
.skip:focus{left:1rem;top:1rem;background:var(--card);padding:.4rem .8rem}
nav ol{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;padding:0;margin:.8rem 0;list-style:none}
ol.panel{list-style:none;padding:0;display:grid;gap:.6rem;
grid-template-columns:repeat(auto-fill,minmax(15rem,1fr))}
ol.panel li{display:flex;gap:.7rem;align-items:center;background:var(--card);
border-radius:.6rem;padding:.5rem .7rem;border-left:4px solid var(--pc,var(--line))}
ol.panel .focus{display:block;font-size:.85rem;color:var(--muted)}
img.avatar{width:48px;height:48px;border-radius:50%;flex:none}
.event{background:var(--card);border-left:4px solid var(--accent);padding:.6rem .8rem;
border-radius:.4rem}
article.msg{display:flex;gap:.8rem;margin:0 0 1rem;padding:.7rem .9rem;background:var(--card);
border-radius:.6rem;border-left:4px solid var(--pc,var(--line))}
.av{width:40px;height:40px;border-radius:50%;flex:none;background-size:cover}
article.msg .body{min-width:0;flex:1}
article.msg h3{margin:0 0 .3rem;font-size:1rem}
.seat{font-weight:400;color:var(--muted);font-size:.85rem}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.2rem 0}
blockquote{margin:.4rem 0;padding:.3rem .8rem;border-left:3px solid var(--muted);
background:var(--quote);white-space:pre-wrap;overflow-wrap:anywhere}
pre{background:var(--quote);padding:.6rem;border-radius:.3rem;overflow-x:auto}
code{font-family:ui-monospace,"Cascadia Mono","DejaVu Sans Mono",monospace;font-size:.92em}
table{border-collapse:collapse;width:100%}
.scroll{overflow-x:auto;margin:.4rem 0 1rem;max-width:100%;
background:linear-gradient(to right,var(--bg) 40%,transparent) left/2rem 100% no-repeat local,
linear-gradient(to left,var(--bg) 40%,transparent) right/2rem 100% no-repeat local,
radial-gradient(farthest-side at 0 50%,var(--shade),transparent) left/.8rem 100% no-repeat,
radial-gradient(farthest-side at 100% 50%,var(--shade),transparent) right/.8rem 100% no-repeat}
@media (max-width:40rem){table.story{white-space:nowrap}}
details.reveal{margin:1.6rem 0;padding:.2rem 1rem .6rem;border:2px solid var(--line);
border-radius:.6rem}
details.reveal>summary{cursor:pointer;padding:.6rem 0}
details.reveal>summary h2{display:inline;border:0;margin:0;padding:0}
details.reveal>summary .meta{display:block;font-size:.9rem;margin-top:.2rem}
ul.verdict li{margin:0 0 .4rem}
.caption{font-weight:600;margin:.8rem 0 .3rem}
ul.votes{list-style:none;padding:0;margin:0 0 1rem}
ul.votes li{padding:.45rem 0 .45rem .7rem;border-left:4px solid var(--pc,var(--line));
border-bottom:1px solid var(--line)}
ul.votes .reason{display:block;overflow-wrap:anywhere}
a.cite{text-decoration-style:dotted;text-underline-offset:.15em}
h3.path{font-size:1rem;overflow-wrap:anywhere}
pre.listing{max-height:32rem;overflow:auto;padding:.4rem 0;line-height:1.45;font-size:.9rem}
pre.listing code{display:block;width:max-content;min-width:100%}
.listing .line{display:block;white-space:pre;padding-right:.8rem;scroll-margin:3rem 0}
.listing .n{display:inline-block;min-width:4.5ch;padding:0 1ch 0 .4ch;text-align:right;
color:var(--muted);text-decoration:none;user-select:none}
.listing .m{user-select:none;padding-right:.6ch}
.listing .added{background:var(--add)}
.listing .removed{background:var(--del)}
.listing .hunk{color:var(--muted)}
.listing .line:target{background:var(--hl);outline:2px solid var(--accent);outline-offset:-2px}
caption{text-align:left;font-weight:600;padding:.3rem 0}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid var(--line)}
.out{font-weight:600}
.reveal-head{display:flex;gap:1rem;align-items:center;background:var(--card);
padding:.9rem 1rem;border-radius:.6rem;border-left:6px solid var(--pc,var(--accent))}
.reveal-head img.avatar{width:72px;height:72px}
.reveal-head p{margin:.2rem 0}
.lead{font-size:1.2rem}
ol.ledger li{margin:0 0 .8rem}
del{text-decoration-thickness:2px;color:var(--bad)}
.why{display:block}
.right{color:var(--good);font-weight:600}
.wrong{color:var(--bad);font-weight:600}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.round-head{font-weight:600;background:var(--card);padding:.45rem .8rem;border-radius:.4rem;
border-left:4px solid var(--accent)}
ul.examines{margin:.2rem 0 1rem;padding-left:1.2rem;font-size:.92rem}
.moved{display:block;font-size:.88rem;font-style:italic;color:var(--muted)}
ul.tally{list-style:none;padding:0;margin:.4rem 0 1.2rem;display:grid;gap:.3rem .6rem;
grid-template-columns:minmax(0,11rem) minmax(3rem,1fr) auto;align-items:center}
ul.tally li{display:contents}
ul.tally .who{overflow-wrap:anywhere;font-size:.92rem}
.track{display:block;height:.8rem;background:var(--card);border-radius:.4rem;overflow:hidden}
.bar{display:block;height:100%;background:var(--pc,var(--accent))}
ul.tally .n{font-size:.9rem;color:var(--muted);white-space:nowrap}
ol.humans li{margin:0 0 .3rem}
article.msg .said{min-width:0}
article.msg .said>:first-child{margin-top:0}
details.private{margin:.6rem 0 0;padding:0 .7rem;border:1px dashed var(--muted);
border-radius:.4rem;background:var(--bg);min-width:0}
details.private>summary{cursor:pointer;padding:.3rem 0;font-size:.92rem;color:var(--muted)}
.spoiler{font-size:.72rem;text-transform:uppercase;letter-spacing:.06em;padding:0 .45rem;
margin-left:.3rem;border:1px solid var(--muted);border-radius:1rem}
.notes{padding:0 0 .6rem;overflow-wrap:anywhere;font-size:.95rem}
.whose{font-size:.9rem;margin:.3rem 0;color:var(--muted)}
.whose.tm{color:var(--bad);font-weight:600}
.plant{margin:.5rem 0;padding:.3rem .7rem;border-left:3px solid var(--bad);background:var(--del);
border-radius:.3rem}
.plant ol{margin:.2rem 0;padding-left:1.2rem}
.plant li{margin:0 0 .4rem}
.plant .claim{display:block}
ul.noted{padding-left:1.2rem}
@media (max-width:40rem){details.private{padding:0 .5rem}.plant{padding:.3rem .5rem}}
@media (min-width:62rem){article.msg:has(details.private[open]) .body{display:grid;
grid-template-columns:minmax(0,1fr) minmax(0,.85fr);column-gap:1rem;align-items:start}
article.msg .body>h3{grid-column:1/-1}
article.msg details.private[open]{margin-top:0}}
footer{margin-top:3rem;padding-bottom:2rem;font-size:.85rem;color:var(--muted)}
"""


def seat_css(avatars: Mapping[int, Avatar], colours: Mapping[int, int]) -> str:
    """Per-seat rules: each avatar's data is written once here, however many messages show
    it, so a long game does not repeat the image in every message."""
    rules = [f'.av{seat}{{background-image:url("{avatar.uri}")}}'
             for seat, avatar in sorted(avatars.items())]
    rules += [f".s{seat}{{--pc:#{colour:06x}}}" for seat, colour in sorted(colours.items())]
    return "\n".join(rules)
