"""The surface reader: can a bag of word n-grams name the Troublemaker without the code?

Rows are seats; a row's text is its public text, masked (text.mask); its label is whether
the seat was the Troublemaker. Which word and punctuation n-grams (1 to 3) it uses, present
or not, feed a logistic regression; for each held-out game the top-scored seat is its guess, and the
measure is the share of games where that guess is the Troublemaker (chance: one in eight).

Held out by input file AND by seed. By file, so that no tell of one file's findings is
learnt and read back on the same file. By seed too, because the deal (who sits where, who is
the Troublemaker, under which persona) is a function of the seed alone and every input is
played with the same seeds: training on another file's game of the same seed would teach
"this persona's voice is the Troublemaker" for that very deal, a tell no real game has. So
each fold tests the games of a block of files and a block of seeds, and trains only on the
games of neither block.

`review` reads each seat's reviews alone; `all` adds its accusations, its vote reasons and
behaviour rates (behaviour_row). Rates, not counts: how many turns a seat played says when it
was eliminated, which is the jury's doing, not the seat's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy.sparse import csr_matrix, hstack
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from . import behaviour as bh
from .games import Game
from .text import mask

INPUT_FOLDS = 5
SEED_FOLDS = 4


@dataclass
class Rows:
    games: list[Game]
    texts: list[str]
    labels: np.ndarray  # 1 for the Troublemaker's row
    game_of: np.ndarray  # index into games, per row
    extra: np.ndarray  # behaviour rates per row (no columns for `review`)

    @cached_property
    def _counted(self) -> tuple[csr_matrix, np.ndarray]:
        vectorizer = CountVectorizer(ngram_range=(1, 3), token_pattern=r"\w+|[^\w\s]",
                                     binary=True)
        present = vectorizer.fit_transform(self.texts).tocsr()
        return present, vectorizer.get_feature_names_out()

    @property
    def present(self) -> csr_matrix:
        """Row by n-gram (words and marks, one to three in a row, lower-cased): 1 where the
        row's text has it. Counted once: every fold fits on most rows again, and counting
        them afresh was four fifths of the cross-validation's time."""
        return self._counted[0]

    @property
    def ngrams(self) -> np.ndarray:
        return self._counted[1]


def review_text(game: Game, seat: int) -> str:
    return mask(game.reviews[seat], game.names)


def all_text(game: Game, seat: int) -> str:
    parts = [game.reviews[seat]]
    parts += [a.text for a in game.accusations if a.seat == seat]
    parts += [v.reason for v in game.votes if v.seat == seat]
    return mask("\n".join(parts), game.names)


def _rate(flags: Sequence[bool | None]) -> float:
    counted = [f for f in flags if f is not None]
    return sum(counted) / len(counted) if counted else 0.0


BEHAVIOUR = ("strong accusations", "votes for own accuser", "counter-accusations",
             "votes as it accused", "switched targets", "review words", "accusation words",
             "reason words")


def behaviour_row(game: Game, seat: int) -> list[float]:
    """What a seat did, as shares of what it could have done, and its lengths in words."""
    made = [a for a in game.accusations if a.seat == seat]
    cast = [v for v in game.votes if v.seat == seat]
    accused_of = {a.round: a.target for a in made}
    return [
        _rate([bh.is_strong(a) for a in made]),
        _rate([bh.votes_own_accuser(game, v) for v in cast]),
        _rate([bh.counter_accuses(game, a) for a in made]),
        _rate([v.target == accused_of.get(v.round) for v in cast]),
        _rate([accused_of.get(r) != accused_of.get(r - 1) for r in accused_of if r > 1]),
        float(len(game.reviews[seat].split())),
        float(np.mean([len(a.text.split()) for a in made])) if made else 0.0,
        float(np.mean([len(v.reason.split()) for v in cast])) if cast else 0.0,
    ]


def rows(games: list[Game], text_of: Callable[[Game, int], str], with_behaviour: bool) -> Rows:
    texts, labels, game_of, extra = [], [], [], []
    for index, game in enumerate(games):
        for seat in game.seats:
            texts.append(text_of(game, seat))
            labels.append(int(seat == game.troublemaker))
            game_of.append(index)
            extra.append(behaviour_row(game, seat) if with_behaviour else [])
    return Rows(games, texts, np.array(labels), np.array(game_of),
                np.array(extra, dtype=float).reshape(len(texts), -1))


def _blocks(keys: list[object], folds: int) -> dict[object, int]:
    """Each distinct key (in first-seen order) to one of `folds` blocks, round robin."""
    distinct = list(dict.fromkeys(keys))
    return {key: i % min(folds, len(distinct)) for i, key in enumerate(distinct)}


@dataclass
class Reader:
    """The vectorizer, the behaviour scaler and the model, fitted on some rows."""

    columns: np.ndarray  # the n-grams it reads: those at least two training rows have
    scaler: StandardScaler | None
    model: LogisticRegression

    @classmethod
    def fit(cls, data: Rows, train: np.ndarray) -> Reader:
        rows_with = np.asarray(data.present[train].sum(axis=0)).ravel()
        columns = np.flatnonzero(rows_with >= 2)
        scaler = StandardScaler().fit(data.extra[train]) if data.extra.shape[1] else None
        reader = cls(columns, scaler, LogisticRegression(C=1.0, max_iter=2000,
                                                         solver="liblinear"))
        reader.model.fit(reader.features(data, train), data.labels[train])
        return reader

    def features(self, data: Rows, which: np.ndarray) -> csr_matrix:
        words = data.present[which][:, self.columns]
        if self.scaler is None:
            return words
        return hstack([words, csr_matrix(self.scaler.transform(data.extra[which]))]).tocsr()

    def scores(self, data: Rows, which: np.ndarray) -> np.ndarray:
        scores: np.ndarray = self.model.decision_function(self.features(data, which))
        return scores


def _fit_and_score(data: Rows, train: np.ndarray, test: np.ndarray) -> np.ndarray:
    return Reader.fit(data, train).scores(data, test)


def guesses(data: Rows, input_folds: int = INPUT_FOLDS, seed_folds: int = SEED_FOLDS
            ) -> dict[int, bool]:
    """Per held-out game (its index), whether its top-scored seat is the Troublemaker."""
    input_block = _blocks([g.input for g in data.games], input_folds)
    seed_block = _blocks(sorted(g.seed for g in data.games), seed_folds)
    row_input = np.array([input_block[data.games[i].input] for i in data.game_of])
    row_seed = np.array([seed_block[data.games[i].seed] for i in data.game_of])
    rng = np.random.default_rng(0)  # ties (no signal at all) broken at random, not seat 1
    hits: dict[int, bool] = {}
    for fi in sorted(set(input_block.values())):
        for fs in sorted(set(seed_block.values())):
            test = np.flatnonzero((row_input == fi) & (row_seed == fs))
            train = np.flatnonzero((row_input != fi) & (row_seed != fs))
            if not len(test) or len(set(data.labels[train])) < 2:
                continue
            scores = _fit_and_score(data, train, test)
            for index in sorted(set(data.game_of[test])):
                mine = data.game_of[test] == index
                tops = np.flatnonzero(scores[mine] == scores[mine].max())
                hits[int(index)] = bool(data.labels[test[mine][int(rng.choice(tops))]])
    return hits


def top1(data: Rows, input_folds: int = INPUT_FOLDS, seed_folds: int = SEED_FOLDS) -> float:
    """The share of held-out games whose top-scored seat is the Troublemaker."""
    hits = guesses(data, input_folds, seed_folds)
    return sum(hits.values()) / len(hits) if hits else 0.0


def tells(data: Rows, count: int, common: float = 0.05
          ) -> list[tuple[str, float, float, float]]:
    """Fitted on every row: the `count` heaviest features towards the Troublemaker among
    those at least `common` of its rows have (a rare n-gram's weight says little), each with
    its weight and, for the Troublemaker's rows and the honest rows, the share that have it
    (a behaviour, in brackets: its mean value)."""
    reader = Reader.fit(data, np.arange(len(data.texts)))
    present = data.present[:, reader.columns]
    tm = data.labels == 1
    tm_share = np.asarray(present[tm].mean(axis=0)).ravel()
    honest_share = np.asarray(present[~tm].mean(axis=0)).ravel()
    names = list(data.ngrams[reader.columns])
    if reader.scaler is not None:
        names += [f"[{b}]" for b in BEHAVIOUR]
        tm_share = np.concatenate([tm_share, data.extra[tm].mean(axis=0)])
        honest_share = np.concatenate([honest_share, data.extra[~tm].mean(axis=0)])
    weights = reader.model.coef_[0]
    kept = [i for i, name in enumerate(names) if name.startswith("[") or tm_share[i] >= common]
    kept.sort(key=lambda i: -weights[i])
    return [(names[i], float(weights[i]), float(tm_share[i]), float(honest_share[i]))
            for i in kept[:count]]


def surface_guesses(games: list[Game]) -> dict[str, dict[int, bool]]:
    """Per reader (`review`, `all`), whether it named the Troublemaker of each game."""
    return {"review": guesses(rows(games, review_text, with_behaviour=False)),
            "all": guesses(rows(games, all_text, with_behaviour=True))}


def surface_top1(games: list[Game]) -> dict[str, float]:
    return {reader: sum(hits.values()) / len(hits) if hits else 0.0
            for reader, hits in surface_guesses(games).items()}
