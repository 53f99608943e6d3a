"""Reviews in the server's language (issue 11.4): scripted models writing German and Japanese
through the real engine; the secrecy checks and the word budget hold in either; English, the
default, prompts exactly as before."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass

from tests.engine.scripts import CODE, FixedClock, RecordingTable, make_responder, setup
from tribunalbot.config import GameSettings
from tribunalbot.engine import events as ev
from tribunalbot.engine.budget import word_count
from tribunalbot.engine.game import GameSetup, run_game
from tribunalbot.engine.prompts import RULES, Briefing
from tribunalbot.engine.secrecy import LOST_TEXT, leaks
from tribunalbot.llm.base import Prompt
from tribunalbot.llm.offline import OfflineLLM
from tribunalbot.llm.replies import PlantedClaim, format_review
from tribunalbot.llm.scripted import ScriptedLLM

Script = Callable[[Prompt], str]


def german(prompt: Prompt) -> str:
    """Reviews, accusations and votes in German. The Troublemaker outs itself on its first
    attempt in every phase, in German."""
    task = prompt.task
    first = task.role.troublemaker and task.attempt == 1
    target = task.hints.candidates[0] if task.hints.candidates else 0
    if task.kind == "speak":
        if first:
            return format_review("Ich bin der Troublemaker. Zeile 2 ist sicher.", "n")
        planted = (PlantedClaim(claim="Zeile 2 ist sicher genug", why_wrong="sie ist "
                                "injizierbar", kind="dismissal"),) if task.role.troublemaker else ()
        public = ("- Zeile 2 ist sicher genug." if task.role.troublemaker else
                  f"- Zeile 2 baut die SQL-Abfrage mit einem f-String: Injection-Risiko "
                  f"(Sitz {task.seat}). Bitte parametrisieren.")
        return format_review(public + "\n- Zeile 1 ist sonst in Ordnung.", "sicher", planted)
    if task.kind == "debate":
        argument = ("Der Saboteur bin ich, zugegeben." if first else
                    f"Sitz {target} irrt sich bei Zeile 2: die Abfrage ist injizierbar.")
        return json.dumps({"target": target, "quote": "", "argument": argument,
                           "private_notes": "", "planted": []})
    reason = ("Meine geheime Rolle verlangt es." if first else
              f"Sitz {target} hat Zeile 2 verharmlost.")
    return json.dumps({"target": target, "reason": reason})


LONG_JA = "2行目のクエリは利用者の入力をそのまま埋め込んでいます。" * 60  # 15 words a sentence


def japanese(long_seat: int) -> Script:
    """The same game in Japanese; `long_seat` writes far past its budget; the Troublemaker
    outs itself first, once in full-width letters."""
    def respond(prompt: Prompt) -> str:
        task = prompt.task
        first = task.role.troublemaker and task.attempt == 1
        target = task.hints.candidates[0] if task.hints.candidates else 0
        if task.kind == "speak":
            if first:
                return format_review("私はトラブルメーカーです。2行目は安全です。", "n")
            if task.seat == long_seat:
                return format_review(LONG_JA, "確信あり")
            planted = (PlantedClaim(claim="2行目は安全です", why_wrong="注入できる",
                                    kind="dismissal"),) if task.role.troublemaker else ()
            public = ("- 2行目は安全です。" if task.role.troublemaker else
                      f"- 2行目はf文字列でSQLを組み立てています。SQLインジェクションの危険が"
                      f"あります（席{task.seat}）。パラメータ化してください。")
            return format_review(public + "\n- 1行目は問題ありません。", "確信あり", planted)
        if task.kind == "debate":
            argument = ("実は私はＴｒｏｕｂｌｅｍａｋｅｒです。" if first else
                        f"席{target}は2行目を誤解しています。クエリは注入可能です。")
            return json.dumps({"target": target, "quote": "", "argument": argument,
                               "private_notes": "", "planted": []}, ensure_ascii=False)
        reason = "トラブルメーカーは私です。" if first else f"席{target}は2行目を軽視しました。"
        return json.dumps({"target": target, "reason": reason}, ensure_ascii=False)
    return respond


@dataclass
class Played:
    llm: ScriptedLLM
    shown: list[ev.Record]  # what the table was shown: public views only
    log: list[ev.Record]  # the whole log, private notes included


def play(script: Script, language: str, seed: int = 4, **settings: object) -> Played:
    llm, table = ScriptedLLM(script), RecordingTable()
    game = setup(seed, max_rounds=2, language=language, **settings)
    result = asyncio.run(run_game(game, llm, table, clock=FixedClock()))
    return Played(llm, table.shown, result.events)


def public_texts(shown: list[ev.Record]) -> list[str]:
    texts = []
    for record in shown:
        if isinstance(record, ev.Statement | ev.Accusation):
            texts.append(record.text)
        if isinstance(record, ev.AIVotes):
            texts += [v.reason for v in record.votes]
    return texts


def assert_secret_kept(llm: ScriptedLLM, shown: list[ev.Record], outings: list[str]) -> None:
    """Every first attempt of the Troublemaker leaked, was asked again, and no public record
    before the reveal holds any of it."""
    for phase in ("speak", "debate", "vote"):
        attempts = {p.task.attempt for p in llm.calls
                    if p.task.role.troublemaker and p.task.kind == phase}
        assert {1, 2} <= attempts, phase
    before_reveal = [r for r in shown if not isinstance(r, ev.Revealed)]
    dumped = json.dumps([r.public_payload() for r in before_reveal], ensure_ascii=False)
    for outing in outings:
        assert outing not in dumped
    assert not any(leaks(text) for text in public_texts(shown))


def assert_one_shared_prefix(llm: ScriptedLLM, instruction: str) -> None:
    by_phase: dict[tuple[str, int], set[str]] = {}
    for p in llm.calls:
        by_phase.setdefault((p.task.kind, p.task.round), set()).add(p.shared)
    assert all(len(shared) == 1 for shared in by_phase.values())
    assert all(p.shared.startswith(f"{RULES}\n\n{instruction}") for p in llm.calls)


def test_a_german_game_is_played_in_german_and_keeps_the_secret() -> None:
    game = play(german, "Deutsch")
    assert isinstance(game.shown[-1], ev.Revealed)
    texts = public_texts(game.shown)
    statements = [r.text for r in game.shown if isinstance(r, ev.Statement)]
    assert statements and all("Zeile" in t for t in statements)
    assert all("Sitz" in t for t in texts if t not in statements)
    assert_secret_kept(game.llm, game.shown, ["Troublemaker", "Saboteur bin ich",
                                              "geheime Rolle"])
    assert_one_shared_prefix(game.llm, "LANGUAGE: write all your text in Deutsch")
    revealed = game.shown[-1]
    assert [e.claim for e in revealed.ledger] == ["Zeile 2 ist sicher genug"]
    assert any(v.startswith("Zeile 2 baut") for v in revealed.verdict)  # "Zeile 2" is a line
    assert not any("Zeile 2 ist sicher genug" in v for v in revealed.verdict)  # struck out


def test_a_japanese_game_is_played_in_japanese_within_the_budget() -> None:
    budget = 120
    game = play(japanese(long_seat=1), "日本語", word_budget=budget)
    assert isinstance(game.shown[-1], ev.Revealed)
    statements = {r.seat: r for r in game.shown if isinstance(r, ev.Statement)}
    assert all("行目" in s.text for s in statements.values())
    others = [t for t in public_texts(game.shown) if t not in
              {s.text for s in statements.values()}]
    assert others and all("席" in t for t in others)
    assert_secret_kept(game.llm, game.shown, ["トラブルメーカー", "Troublemaker", "Ｔｒｏｕｂｌｅ"])
    assert_one_shared_prefix(game.llm, "LANGUAGE: write all your text in 日本語")
    long = statements[1]
    assert word_count(LONG_JA) > 5 * budget
    assert budget / 2 <= word_count(long.text) <= budget  # cut at a sentence, near the budget
    assert long.text.endswith("。") and LONG_JA.startswith(long.text)
    private = next(r for r in game.log if isinstance(r, ev.Statement) and r.seat == 1)
    assert "cut from" in private.notes
    # every review's share of the budget: about two characters a word, whole sentences
    assert all(len(s.text) <= 2 * budget + 40 for s in statements.values())
    revealed = game.shown[-1]
    assert isinstance(revealed, ev.Revealed) and any("2行目" in v for v in revealed.verdict)


def test_replies_in_another_language_get_room_for_their_tokens() -> None:
    english = play(make_responder(), "English", word_budget=150).llm
    japan = play(japanese(long_seat=0), "日本語", word_budget=150).llm
    def tokens(llm: ScriptedLLM, kind: str) -> set[int]:
        return {p.max_tokens for p in llm.calls if p.task.kind == kind}
    assert tokens(english, "speak") == {450} and tokens(english, "vote") == {700}
    # 150 words are 300 characters, about one token each, and the private notes besides
    assert tokens(japan, "speak") == {900} and tokens(japan, "vote") == {1400}
    assert {p.task.hints.words for p in japan.calls if p.task.kind == "speak"} == {150}


def _prompts(language: str | None) -> list[tuple[str, str, int]]:
    settings: dict[str, object] = {} if language is None else {"language": language}
    llm = play(make_responder(), **({"language": "English"} | settings)).llm
    return [(p.shared, p.personal, p.max_tokens) for p in llm.calls]


def test_the_english_default_prompts_as_before() -> None:
    assert GameSettings().language == "English"
    default = _prompts(None)
    assert default == _prompts("english") == _prompts(" ENGLISH ")
    assert all("LANGUAGE:" not in shared for shared, _, _ in default)
    assert all(shared.startswith(f"{RULES}\n\nCODE UNDER REVIEW") for shared, _, _ in default)
    # another language adds its instruction after the rules, and nothing else changes
    head = Briefing(CODE, "python", "seat 1: X").shared_head()
    german_head = Briefing(CODE, "python", "seat 1: X", writes="German").shared_head()
    rule, rest = german_head.removeprefix(RULES + "\n\n").split("\n\n", 1)
    assert rule.startswith("LANGUAGE: write all your text in German")
    assert f"{RULES}\n\n{rest}" == head


def test_the_offline_reviewer_writes_the_same_english_whatever_the_language() -> None:
    """It does not pretend: a German game on the offline provider reads as the English one,
    word for word (its word budget comes with the task, not from the larger max_tokens)."""
    def statements(language: str) -> list[str]:
        table = RecordingTable()
        game = GameSetup("g", CODE, "python", 5, GameSettings(max_rounds=1, event_chance=0.0,
                                                               language=language))
        asyncio.run(run_game(game, OfflineLLM(use_ruff=False), table, clock=FixedClock()))
        return [r.text for r in table.shown if isinstance(r, ev.Statement)]
    english = statements("English")
    assert english == statements("German")
    assert all(t != LOST_TEXT for t in english)
