"""Self-outing in the languages reviewers write besides English (secrecy.py holds English).

A reviewer told to write German or Japanese outs itself in German or Japanese: "Ich bin der
Saboteur", "私はトラブルメーカーです". These patterns look for what the English ones do: the
first person next to a role word, and talk of a hidden role, mission or instructions. They
run on folded text (`fold`): NFKC, so full-width letters and brackets read as plain ones, and
without invisible format characters, so "Sabo\u200bteur" is "Saboteur".

Innocent uses stay innocent: an accusation names a role about someone else ("Sitz 3 ist der
Saboteur", "席3がトラブルメーカーだと思います"), which none of these match. Like the English
checks they run on every player's text alike, so a regenerated reply is no tell.
"""

from __future__ import annotations

import re
import unicodedata

_TROUBLEMAKER = r"trouble\s*-?\s*maker"
# A clause that reports a belief ("I am sure that ... the saboteur is seat 3") ends the reach
# of the first person.
_CONJUNCTION = r"(?:that|dass|ob|que|che|dat|om|что|whether|if)\b"

# Languages written with spaces: (first person before a role, the role words, the first
# person after the role, talk of a hidden role or instructions, how many words may stand
# between the first person and the role).
_SPACED: tuple[tuple[str, str, str, str, int], ...] = (
    (  # German
        r"\bich\s+(?:bin|war|spiele|spielte)|\b(?:bin|war)\s+ich|\bmich|\bmeine[rn]?\s+rolle\s+als",
        rf"{_TROUBLEMAKER}(?:in)?|saboteur(?:in)?|st(?:ö|oe|o)renfried|unruhestifter(?:in)?"
        r"|maulwurf|verr(?:ä|ae|a)ter(?:in)?|hochstapler(?:in)?|eingeschleuste[rn]?",
        r"\bbin\s+ich\b|\bwar\s+ich\b|\bdas\s+bin\s+ich\b",
        r"\b(?:meine[nmrs]?|geheime[nmrs]?|versteckte[nmrs]?|verborgene[nmrs]?|private[nmrs]?)"
        r"\s+(?:rolle|mission|strategie|tarnung|anweisung(?:en)?|instruktion(?:en)?|notizen"
        r"|sabotage|agenda|auftrag)\b|\b(?:tarn|sabotage)-?strategie",

        3,
    ),
    (  # French
        r"\bje\s+suis|\bj['’]\s*(?:étais|ai\s+été)|\bmoi\s*,?\s*je\s+suis",
        rf"{_TROUBLEMAKER}|fauteu(?:r|se)\s+de\s+troubles?|saboteu(?:r|se)|\btaupe\b"
        r"|tra[îi]tre(?:sse)?|imposteur|perturbat(?:eur|rice)",
        r"\bc['’](?:est|était)\s+moi\b",
        r"\b(?:mon|ma|mes)\s+(?:rôle|role|mission|stratégie|strategie|instructions?|consignes?"
        r"|notes\s+privées)\b|\b(?:rôle|mission|stratégie|instructions?|notes)\s+"
        r"(?:secr[eè]te?s?|cach[ée]e?s?|privée?s?)\b",

        3,
    ),
    (  # Spanish and Portuguese
        r"\b(?:yo|eu)\s+(?:soy|sou|era)|\b(?:soy|sou)\b",
        rf"{_TROUBLEMAKER}|saboteur|sabotead(?:or|ora)|sabotad(?:or|ora)|alborotador(?:a)?"
        r"|encrenqueir[oa]|\btopo\b|\btoupeira\b|traidor(?:a)?|impostor(?:a)?|infiltrad[oa]",
        r"\b(?:soy|sou|fui)\s+yo\b|\bsou\s+eu\b|\bfui\s+eu\b",
        r"\b(?:mi|mis|meu|minha|meus|minhas)\s+(?:rol|papel|misi[oó]n|miss[ãa]o|estrat[ée]gia"
        r"|instrucciones|instru[çc][õo]es|notas\s+privadas)\b|\b(?:rol|papel|misi[oó]n"
        r"|miss[ãa]o|estrat[ée]gia|instrucciones|instru[çc][õo]es|notas)\s+(?:secret[oa]s?"
        r"|ocult[oa]s?|privad[oa]s?)\b",

        3,
    ),
    (  # Italian
        r"\bio\s+sono|\bsono\s+io|\bero\s+io",
        rf"{_TROUBLEMAKER}|saboteur|sabotat(?:ore|rice)|piantagrane|\btalpa\b"
        r"|tradit(?:ore|rice)|impostor[ea]|infiltrat[oa]",
        r"\bsono\s+io\b|\bero\s+io\b",
        r"\b(?:il\s+mio|la\s+mia|i\s+miei|le\s+mie)\s+(?:ruolo|missione|strategia|istruzioni"
        r"|note\s+private)\b|\b(?:ruolo|missione|strategia|istruzioni|note)\s+(?:segret[oaie]"
        r"|nascost[oaie]|privat[oaie])\b",

        3,
    ),
    (  # Dutch
        r"\bik\s+(?:ben|was|speel)|\bben\s+ik",
        rf"{_TROUBLEMAKER}|saboteur|onruststoker|dwarsligger|verrader|bedrieger|\bmol\b",
        r"\bben\s+ik\b|\bwas\s+ik\b",
        r"\b(?:mijn|geheime|verborgen)\s+(?:rol|missie|strategie|instructies|notities)\b",

        3,
    ),
    (  # Russian (last: its patterns run on Cyrillic text only) writes no copula ("я
        # саботажник"), so nothing may stand between: in "я думаю, место 3 — саботажник" the
        # first person is not the role.
        r"\bя(?:\s+и\s+есть|\s+был[аи]?|\s+же)?(?:\s+не)?(?:\s+(?:тот\s+самый|тайный|настоящий"
        r"|ваш))?",
        r"трублмейкер|саботажни(?:к|ца)|вредител[ья]|диверсант|предател[ья]|самозван(?:ец|ка)"
        r"|\bкрот\b|смутьян",
        r"\bэто\s+(?:был[аи]?\s+)?я\b",
        r"\b(?:моя|мой|мои)\s+(?:роль|миссия|стратегия|инструкции|заметки)\b"
        r"|\b(?:секретн|скрыт|тайн)\w*\s+(?:роль|роли|мисси|стратеги|инструкци|заметк)\w*",
        0,
    ),
)


def _first_person(selves: str, roles: str, after: str, gap: int) -> str:
    """The first person next to a role, in either order, within one clause."""
    role = rf"(?:{roles})"
    return (rf"(?:{selves})\W+(?:(?!{_CONJUNCTION})[\w'’-]+\W+){{0,{gap}}}{role}"
            rf"|{role}[^.!?\n]{{0,25}}(?:{after})")


# Chinese, Japanese and Korean. Japanese and Chinese write no spaces and \b does not separate
# kana from Latin letters, so the English role words are listed here too, without \b.
_ROLE_CJK = (
    rf"(?:{_TROUBLEMAKER}|saboteur|トラブル\s*メー?カー|トラブルメイカー|妨害者|妨害役|破壊工作員"
    r"|工作員|裏切り者|内通者|スパイ|偽者|なりすまし|犯人|サボタージュ役"
    r"|捣乱者|搗亂者|捣蛋鬼|搗蛋鬼|麻烦制造者|麻煩製造者|破坏者|破壞者|破坏分子|卧底|臥底|内鬼|內鬼"
    r"|叛徒|内奸|內奸|间谍|間諜"
    r"|트러블\s*메이커|방해꾼|방해자|사보타주|배신자|첩자|스파이)"
)
_SELF_JA = r"(?:私|わたし|わたくし|僕|ぼく|俺|おれ|あたし|自分)"
# Between "I" and the role a few words may stand ("私は実は…"), but not another subject, a
# seat, a number or "I think that" ("私は席3がトラブルメーカーだと思う" is an accusation); and
# the role is what "I" am, not what "I" look for ("私はトラブルメーカーを探す").
_GAP_JA = r"[^。！？!?\n席号號番位0-9が彼他她のと]{0,6}?"
_IS_JA = r"(?=\s*(?:です|だ|でし|であ|じゃ|では|なん|なの|とし|[。！!？?、,]|$))"
_SECRET_JA = r"(?:秘密|隠れた|隠された|内緒)の?"
_ROLE_NOUN_JA = r"(?:役割|役目|任務|使命|正体|戦略|作戦|指示|指令|メモ)"
_SECRET_ZH = r"(?:秘密|隐藏|隱藏|暗中)的?"
_ROLE_NOUN_ZH = r"(?:角色|身份|身分|任务|任務|使命|策略|指令|指示|笔记|筆記)"
_THAT_ZH = r"(?:那个|那個|这个|這個|一个|一個|真正的|秘密的)?"
_IS_KO = r"(?=(?:입니다|이에요|예요|이다|다|야|이\s*아닙|가\s*아닙|[.!?,]|$))"

_CJK: tuple[re.Pattern[str], ...] = tuple(re.compile(p, re.I) for p in (
    # Japanese: 私はトラブルメーカーです / トラブルメーカーは私です / 私の秘密の役割
    rf"{_SELF_JA}(?:こそが?|は|が|も|、|,)\s*{_GAP_JA}{_ROLE_CJK}{_IS_JA}",
    rf"{_ROLE_CJK}(?:は|って|とは|こそ)?\s*{_SELF_JA}(?:です|だ|でした|なの|なんです|[。！!？?]|$)",
    rf"{_SELF_JA}の(?:{_SECRET_JA}|本当の|真の)?{_ROLE_NOUN_JA}|{_SECRET_JA}{_ROLE_NOUN_JA}"
    r"|(?:妨害|サボタージュ)(?:戦略|作戦)",
    # Chinese: 我是捣乱者 / 捣乱者就是我 / 我的秘密任务
    rf"我(?!们|們)(?:就|才|其实|其實|确实|確實|也|不|便|真的)?是{_THAT_ZH}{_ROLE_CJK}",
    rf"{_ROLE_CJK}(?:就|其实|其實|正)?是我(?!们|們)",
    rf"我的(?:{_SECRET_ZH}|真正的?)?{_ROLE_NOUN_ZH}|{_SECRET_ZH}{_ROLE_NOUN_ZH}",
    # Korean: 저는 방해꾼입니다 / 방해꾼은 저입니다
    rf"(?:나는|내가|저는|제가|난|전)\s*(?:바로|사실|실은|진짜)?\s*{_ROLE_CJK}{_IS_KO}",
    rf"{_ROLE_CJK}(?:는|은)\s*(?:바로\s*)?(?:저|나)(?:입니다|예요|이에요|야|다|요)?(?:[.!?\s]|$)",
    r"(?:제|내|나의|저의)\s*(?:비밀\s*)?(?:역할|임무|전략|지시)|비밀\s*(?:역할|임무|지시)",
))

# The private-notes header a model may translate ("[NOTIZEN]", "【メモ】") in front of what
# should have stayed private.
_NOTES_HEADER = re.compile(
    r"[\[【〔〖〘「『]\s*(?:review|notes|notizen|anmerkungen|notas|remarques|appunti|notities"
    r"|заметки|примечания|メモ|ノート|備考|笔记|筆記|备注|備註|메모)\s*[\]】〕〗〙」』]", re.I)

# What a disguise strategy is called in the languages above: after its name ("the Deep
# Thinker strategy", "It's Perfect戦略"), or before it ("Strategie: Rewrite It", "戦略はBlockchain";
# not "approach": "the simplest approach: rewrite it as a loop" is advice).
STRATEGY_BEFORE = (r"strategy|disguise|strategie|tarnung|stratégie|déguisement|estrategia"
                   r"|estratégia|disfraz|disfarce|strategia|стратеги\w*|戦略|作戦|変装|策略|战略"
                   r"|戰略|伪装|偽裝|전략|위장")
STRATEGY_AFTER = rf"{STRATEGY_BEFORE}|approach|ansatz|手口"
STRATEGY_GAP = r"(?:\W|は|が|の|是|은|는){1,4}"

# Each group runs only on text its gate finds something in (most text is none of these
# languages, or names no role): the checks run on every reply, many times a game. A gate is
# a script's letters, or word stems of which the lower-cased text must hold one.
_ROLE_STEMS = ("troubl", "sabot", "störenf", "storenf", "stoerenf", "unruhest", "maulwurf",
               "verräter", "verraeter", "verrater", "hochstap", "eingeschleust", "fauteu",
               "taupe", "traît", "trait", "impost", "perturbat", "alborot", "encrenq", "topo",
               "toupeir", "traidor", "infiltr", "piantag", "talpa", "tradit", "onrust",
               "dwars", "verrad", "bedrieg", "mol")
_HIDDEN_STEMS = ("rol", "rôle", "papel", "ruolo", "missi", "missã", "misi",
                 "strat", "tarnung", "anweisung", "instru", "istruz", "consign", "notizen",
                 "note", "notas", "agenda", "auftrag", "sabotage")
_LATIN = [language for language in _SPACED if language is not _SPACED[-1]]
_Gate = tuple[str, ...] | re.Pattern[str]
_GROUPS: tuple[tuple[_Gate, tuple[re.Pattern[str], ...]], ...] = (
    (_ROLE_STEMS,
     tuple(re.compile(_first_person(s, r, a, g), re.I) for s, r, a, _, g in _LATIN)),
    (_HIDDEN_STEMS, tuple(re.compile(hidden, re.I) for _, _, _, hidden, _ in _LATIN)),
    (re.compile(r"[\u0400-\u04ff]"),
     tuple(re.compile(p, re.I) for s, r, a, h, g in _SPACED[-1:]
           for p in (_first_person(s, r, a, g), h))),
    (re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"), _CJK),
    (re.compile(r"[\[【〔〖〘「『]"), (_NOTES_HEADER,)),
)


def elsewhere(folded: str) -> list[str]:
    """The fragments of `folded` (see `fold`) that out a player in another language."""
    lowered = folded.lower()
    found = []
    for gate, patterns in _GROUPS:
        opened = (gate.search(folded) is not None if isinstance(gate, re.Pattern)
                  else any(stem in lowered for stem in gate))
        if opened:
            found += [m.group(0) for p in patterns for m in p.finditer(folded)]
    return found


def fold(text: str) -> str:
    """`text` as the checks read it: NFKC (full-width and compatibility forms folded to plain
    ones) and no invisible format characters (zero-width spaces and joiners, soft hyphens)."""
    if text.isascii():  # already folded: no compatibility form, no format character
        return text
    folded = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")


# Letters that look like Latin ones (Cyrillic, Greek) and digits or signs written for letters.
_LOOKALIKE = str.maketrans(
    "аеорсухіјѕԁһтмнвкАЕОРСУХІЈЅНТМВКαοτνικρεΑΒΕΗΙΚΜΝΟΡΤΧΥ0134578@$|!",
    "aeopcyxijsdhtmhbkaeopcyxijshtmbkaotvikpeabehikmnoptxyoieastbasli")
# Single letters spaced apart ("t r o u b l e m a k e r", "s.a.b.o.t.e.u.r").
_SPACED_LETTERS = re.compile(r"(?<![\w])(?:\w[\s.\-_*·•]{1,3}){3,}\w(?![\w])")


def skeleton(text: str) -> str:
    """`text` as its plain letters, lower case: compatibility forms folded, combining marks
    and invisible characters dropped, look-alikes and digits read as the letters they mimic,
    spaced-out letters joined. Only for the checks: a disguised role word shows in it."""
    decomposed = unicodedata.normalize("NFKD", fold(text))
    bare = "".join(ch for ch in decomposed
                   if unicodedata.category(ch) not in ("Mn", "Me", "Cf"))
    plain = bare.translate(_LOOKALIKE).lower()
    return _SPACED_LETTERS.sub(lambda m: re.sub(r"[\s.\-_*·•]", "", m.group(0)), plain)
