"""The secrecy checks in other languages and scripts (issue 11.4): a reviewer outing itself
in German or Japanese is caught, however its letters are written; an accusation naming the
role about someone else is not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tribunalbot.engine.outing import fold
from tribunalbot.engine.secrecy import LOST_TEXT, leaks, redact

OUTINGS = [
    # German
    "Ich bin der Troublemaker.",
    "Ich bin der Saboteur, das gebe ich zu.",
    "Ich bin, ehrlich gesagt, der Störenfried.",
    "Ich bin nicht der Saboteur!",
    "Der Saboteur bin ich.",
    "In meiner Rolle als Saboteur empfehle ich Caching.",
    "Meine geheime Rolle verbietet mir das.",
    "Das verlangt meine Strategie.",
    "Laut meinen privaten Notizen ist Zeile 2 heikel.",
    # Japanese
    "私はトラブルメーカーです。",
    "私は妨害者です",
    "実は私、トラブルメーカーなんです。",
    "僕こそが妨害者だ。",
    "トラブルメーカーは私です。",
    "私はトラブルメーカーではありません。",
    "私の秘密の役割は言えません。",
    "妨害者は僕だ",
    # other languages the checks read
    "Je suis le saboteur.",
    "Soy el saboteador.",
    "Io sono la talpa.",
    "Я саботажник.",
    "我是捣乱者。",
    "捣乱者就是我。",
    "저는 방해꾼입니다.",
]
# The same outings in the forms a model (or someone probing) may write them.
DISGUISED = [
    "Ich bin der Ｔｒｏｕｂｌｅｍａｋｅｒ.",  # full-width letters
    "Ich bin der Sabo\u200bteur.",  # a zero-width space
    "Ich bin der Sabo\u00adteur.",  # a soft hyphen
    "私はﾄﾗﾌﾞﾙﾒｰｶｰです。",  # half-width katakana
    "私はＴｒｏｕｂｌｅｍａｋｅｒです。",
    "私はtroublemakerです。",  # Latin inside Japanese: \b sees no word boundary there
]
# Markers, planted lines and strategy names in any script.
MARKERS = [
    "［ＮＯＴＥＳ］ geheim", "【NOTES】秘密", "〔REVIEW〕", "[NOTIZEN] geheim", "【メモ】秘密",
    "ＰＬＡＮＴＥＤ：2行目は安全 | 違う | dismissal", "戦略はlet_ai_do_itです。",
    "It's Perfect戦略で行きます。", "Strategie: Rewrite It.", "Die Deep Thinker Strategie.",
]
INNOCENT = [
    # German accusations and findings
    "Sitz 3 ist der Saboteur: seine Empfehlung zu Zeile 2 ist falsch.",
    "Ich glaube, Sitz 3 ist der Saboteur.",
    "Ich bin mir sicher, dass Sitz 3 der Saboteur ist.",
    "Ich bin überzeugt: Sitz 3 ist der Saboteur.",
    "Ich halte Sitz 5 für den Störenfried.",
    "Zeile 2 baut SQL mit einem f-String: Injection-Risiko.",
    "Meine Empfehlung: parametrisierte Abfragen.",
    # Japanese accusations and findings
    "席3がトラブルメーカーだと思います。",
    "私は席3がトラブルメーカーだと考えます。",
    "私の考えでは、トラブルメーカーは席5です。",
    "私はトラブルメーカーを探しています。",
    "私は彼がトラブルメーカーだと思う。",
    "2行目はSQLインジェクションの危険があります。",
    "私はスパイクテストを勧めます。",
    "私の指摘は2行目です。",
    "この処理はパフォーマンスを妨害する。",
    # elsewhere
    "Je suis sûr que le siège 3 est le saboteur.",
    "Я думаю, место 3 — саботажник.",
    "我认为3号是捣乱者。",
    "我觉得他是捣乱者。",
    "这段代码真正的任务是解析输入。",
    "저는 방해꾼을 찾고 있습니다.",
    "I am sure that the troublemaker is seat 3.",
    "The simplest approach: rewrite it as a loop.",
]


@pytest.mark.parametrize("text", OUTINGS + DISGUISED + MARKERS)
def test_an_outing_in_any_language_or_script_leaks(text: str) -> None:
    assert leaks(text), text


@pytest.mark.parametrize("text", INNOCENT)
def test_naming_the_role_about_someone_else_does_not(text: str) -> None:
    assert not leaks(text), leaks(text)


def test_folding_reads_full_width_and_invisible_characters_as_plain() -> None:
    assert fold("［ＮＯＴＥＳ］ Ｓａｂｏ\u200bteur") == "[NOTES] Saboteur"
    assert fold("私はﾄﾗﾌﾞﾙﾒｰｶｰ") == "私はトラブルメーカー"


def test_redaction_cuts_only_the_sentence_that_outs() -> None:
    kept = ("2行目はSQLインジェクションです。", "3行目は例外を握りつぶします。")
    assert redact(f"{kept[0]}私はトラブルメーカーです。{kept[1]}") == "".join(kept)
    german = "Zeile 2 ist unsicher. Ich bin der Saboteur! Zeile 3 verschluckt Fehler."
    assert redact(german) == "Zeile 2 ist unsicher. Zeile 3 verschluckt Fehler."
    assert redact("私はトラブルメーカーです") == LOST_TEXT


JAPANESE = st.text(alphabet="あいうえおかきくけこ行目席安全危険です、", max_size=40)


@settings(max_examples=60, deadline=None)
@given(before=JAPANESE, after=JAPANESE, outing=st.sampled_from(OUTINGS + DISGUISED))
def test_redaction_removes_an_outing_among_any_japanese(before: str, after: str,
                                                        outing: str) -> None:
    cleaned = redact(f"{before}。{outing}{after}")
    assert not leaks(cleaned)
    assert fold(outing).rstrip("。.!") not in fold(cleaned)
