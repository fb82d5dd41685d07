"""Cards, decks and the one parser for what people type.

Two kinds of card:

- ``Card``: the French deck. ``rank`` 1 (ace) … 13 (king), ``suit`` a ``Suit``; a joker has rank
  0 and no suit. Games that rank the ace high decide that themselves; the card only knows its
  face. ``stripped_deck(size)`` builds the shorter decks the club games use (24, 28, 32, 36, 52
  cards, keeping the high ranks, ace included) with jokers on request.
- ``KilleRank``: the Kille deck's 21 ranks, lowest first (Kungsholmskille: "Kortleken"); the
  deck has two of each.

The parser is forgiving about notation and strict about meaning. It accepts, in any case and
with or without spaces: rank-then-suit (``5H``, ``10d``, ``TD``, ``KS``), suit-then-rank
(``hj5``, ``sp10``, ``kl kn``, ``♥5``), Swedish and English names (``ess spader``,
``hjärter dam``, ``queen of hearts``, ``jack spades``). Anything else raises ``CardError`` naming
the text and saying what would be valid.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from engine.errors import CardError, IllegalEvent, _

JOKER, ACE, JACK, QUEEN, KING = 0, 1, 11, 12, 13


class Suit(StrEnum):
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.SPADES: "♠"}
_RANK_LETTERS = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"}


@dataclass(frozen=True, order=True, slots=True)
class Card:
    rank: int
    suit: Suit | None

    def __post_init__(self) -> None:
        if self.rank == JOKER:
            if self.suit is not None:
                raise CardError(_("a joker has no suit"))
        elif not (ACE <= self.rank <= KING) or self.suit is None:
            raise CardError(
                _("no such card: rank {rank}, suit {suit}"), rank=self.rank, suit=self.suit
            )

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def rank_label(self) -> str:
        return _RANK_LETTERS.get(self.rank, str(self.rank))

    @property
    def pretty(self) -> str:
        """How a pad shows the card: ``5♥``, ``10♦``, ``J♠``, ``🃏``."""
        if self.is_joker:
            return "🃏"
        assert self.suit is not None
        return f"{self.rank_label}{self.suit.symbol}"

    def __str__(self) -> str:
        if self.is_joker:
            return "JK"
        assert self.suit is not None
        return f"{self.rank_label}{self.suit.value}"


FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in range(ACE, KING + 1))

# Ranks kept in a stripped deck, highest first: ace, king, queen, jack, 10, 9, …
_HIGH_TO_LOW = (ACE, KING, QUEEN, JACK, 10, 9, 8, 7, 6, 5, 4, 3, 2)


def stripped_deck(size: int, jokers: int = 0) -> tuple[Card, ...]:
    """A deck of ``size`` suited cards (a multiple of 4, 4 … 52) keeping the highest ranks."""
    if size % 4 or not 4 <= size <= 52:
        raise CardError(_("a deck of {size} cards cannot be made from the four suits"), size=size)
    if jokers < 0:
        raise CardError(_("a deck cannot have a negative number of jokers"))
    kept = set(_HIGH_TO_LOW[: size // 4])
    suited = tuple(c for c in FULL_DECK if c.rank in kept)
    return suited + tuple(Card(JOKER, None) for _ in range(jokers))


# --- parsing -------------------------------------------------------------------------------

_SUIT_WORDS: dict[str, Suit] = {}
for _suit, _words in {
    Suit.HEARTS: ("h", "hj", "hjärter", "hjarter", "heart", "hearts", "♥", "♡"),
    Suit.DIAMONDS: ("d", "ru", "ruter", "diamond", "diamonds", "♦", "♢"),
    Suit.CLUBS: ("c", "k", "kl", "klöver", "klover", "club", "clubs", "♣", "♧"),
    Suit.SPADES: ("s", "sp", "spader", "spade", "spades", "♠", "♤"),
}.items():
    for _word in _words:
        _SUIT_WORDS[_word] = _suit

_RANK_WORDS: dict[str, int] = {str(n): n for n in range(2, 11)}
_RANK_WORDS |= {
    "a": ACE, "e": ACE, "1": ACE, "ess": ACE, "ace": ACE,
    "t": 10, "tio": 10, "ten": 10,
    "j": JACK, "kn": JACK, "knekt": JACK, "jack": JACK, "knave": JACK,
    "q": QUEEN, "d": QUEEN, "dam": QUEEN, "queen": QUEEN,
    "k": KING, "kung": KING, "king": KING,
    "två": 2, "tva": 2, "two": 2, "tre": 3, "three": 3, "fyra": 4, "four": 4,
    "fem": 5, "five": 5, "sex": 6, "six": 6, "sju": 7, "seven": 7,
    "åtta": 8, "atta": 8, "eight": 8, "nio": 9, "nine": 9,
}  # fmt: skip
_JOKER_WORDS = {"jk", "joker", "jokern", "🃏"}

_VALID_HELP = _(
    "write a rank and a suit, e.g. 5H, 10D, TD, KS, hj5, sp10, kl kn, ♥5, 'ess spader' "
    "or 'queen of hearts' (suits: H/D/C/S, hj/ru/kl/sp or ♥♦♣♠; ranks: A 2-10 T J Q K, "
    "kn/d/k or Swedish and English names)"
)

_SYMBOLS = "♥♡♦♢♣♧♠♤"
_TOKEN = re.compile(rf"[{_SYMBOLS}]|\d+|[^\W\d_]+")


def _tokens(text: str) -> list[str]:
    lowered = text.strip().lower().replace(" of ", " ").replace(" i ", " ")
    return _TOKEN.findall(lowered)


def _split_glued(token: str) -> list[str]:
    """Split letters glued together such as ``hjkn`` or ``sp10``'s letters into known words."""
    for cut in range(len(token) - 1, 0, -1):
        head, tail = token[:cut], token[cut:]
        if (head in _SUIT_WORDS and tail in _RANK_WORDS) or (
            head in _RANK_WORDS and tail in _SUIT_WORDS
        ):
            return [head, tail]
    return [token]


def suit_word(text: str) -> Suit | None:
    """The suit a word alone names (``hj``, ``spader``, ``clubs``, ``♦`` …), else None."""
    return _SUIT_WORDS.get(text.strip().lower())


def _interpret(parts: list[str]) -> Card | None:
    if len(parts) != 2:
        return None
    first, second = parts
    # Rank-first reading wins ("kd" is king of diamonds; "d k"/"ru k" read suit-first below).
    if first in _RANK_WORDS and second in _SUIT_WORDS:
        return Card(_RANK_WORDS[first], _SUIT_WORDS[second])
    if first in _SUIT_WORDS and second in _RANK_WORDS:
        return Card(_RANK_WORDS[second], _SUIT_WORDS[first])
    return None


def parse_card(text: str) -> Card:
    """One card from what a person typed; ``CardError`` says what was wrong and what is valid."""
    if not text or not text.strip():
        raise CardError(_("an empty text is not a card: {help}"), help=_VALID_HELP)
    tokens = _tokens(text)
    if len(tokens) == 1 and tokens[0] in _JOKER_WORDS:
        return Card(JOKER, None)
    if len(tokens) == 1 and (tokens[0] in _SUIT_WORDS or tokens[0] in _RANK_WORDS):
        # A suit or a rank alone ("hj", "kn") is half a card, not a glued pair.
        raise CardError(
            _("'{text}' is only half a card: {help}"), text=text.strip(), help=_VALID_HELP
        )
    parts: list[str] = []
    for token in tokens:
        parts.extend(_split_glued(token) if len(tokens) == 1 else [token])
    card = _interpret(parts)
    if card is None and len(tokens) == 1:
        card = _interpret(_split_rank_suit_letters(tokens[0]))
    if card is None:
        raise CardError(_("'{text}' is not a card: {help}"), text=text.strip(), help=_VALID_HELP)
    return card


def _split_rank_suit_letters(token: str) -> list[str]:
    """``td``/``10d``/``qh``: last letter suit; ``h5``/``dq``: first letter suit."""
    if len(token) < 2:
        return [token]
    if token[-1] in _SUIT_WORDS and token[:-1] in _RANK_WORDS:
        return [token[:-1], token[-1]]
    if token[0] in _SUIT_WORDS and token[1:] in _RANK_WORDS:
        return [token[0], token[1:]]
    return [token]


_CARD_SPLIT = re.compile(r"[,;]+|\s+")


def parse_cards(text: str) -> list[Card]:
    """Several cards separated by spaces or commas: ``5h 5s 5c jd 5d``, ``hj 5, sp kn``.

    Two-word cards (``kl kn``, ``ess spader``) are read as one card when the words belong
    together; duplicates are *not* refused here (a Kille or multi-deck game may have them) —
    callers that need distinct cards use ``require_distinct``.
    """
    words = [w for w in _CARD_SPLIT.split(text.strip()) if w and w.lower() not in ("of", "i")]
    cards: list[Card] = []
    index = 0
    while index < len(words):
        word = words[index]
        try:
            cards.append(parse_card(word))
            index += 1
            continue
        except CardError:
            if index + 1 >= len(words):
                raise
        try:
            cards.append(parse_card(f"{word} {words[index + 1]}"))
        except CardError:
            raise CardError(
                _("'{text}' is not a card: {help}"), text=word, help=_VALID_HELP
            ) from None
        index += 2
    if not cards:
        raise CardError(_("no cards given: {help}"), help=_VALID_HELP)
    return cards


def require_distinct(cards: list[Card]) -> None:
    """``CardError`` for the first card given twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(_("{card} is given twice; a deck has only one"), card=card.pretty)
        seen.add(card)


@contextmanager
def as_illegal_event() -> Iterator[None]:
    """Re-raise a ``CardError`` as an ``IllegalEvent`` with the same message: in an event, text
    that is not a card (or a card given twice) is an event the rules refuse."""
    try:
        yield
    except CardError as error:
        raise IllegalEvent(error.template, **error.params) from None


# --- the Kille deck ------------------------------------------------------------------------


class KilleRank(IntEnum):
    """Kungsholmskille: "Kortleken" — from lowest to highest."""

    BLAREN = 0
    BLOMPOTTAN = 1
    KRANSEN = 2
    ONE = 3
    TWO = 4
    THREE = 5
    FOUR = 6
    FIVE = 7
    SIX = 8
    SEVEN = 9
    EIGHT = 10
    NINE = 11
    TEN = 12
    ELEVEN = 13
    TWELVE = 14
    VARDSHUS = 15
    KAVALL = 16
    SVIN = 17
    HUSAR = 18
    GOK = 19
    KILLE = 20

    @property
    def label(self) -> str:
        if KilleRank.ONE <= self <= KilleRank.TWELVE:
            return str(self - 2)
        return _KILLE_LABELS[self]

    @property
    def number(self) -> int | None:
        """The face number of a lilja (1-12), else None."""
        return self - 2 if KilleRank.ONE <= self <= KilleRank.TWELVE else None


_KILLE_LABELS = {
    KilleRank.BLAREN: "blaren",
    KilleRank.BLOMPOTTAN: "blompottan",
    KilleRank.KRANSEN: "kransen",
    KilleRank.VARDSHUS: "värdshus",
    KilleRank.KAVALL: "kavall",
    KilleRank.SVIN: "svin",
    KilleRank.HUSAR: "husar",
    KilleRank.GOK: "gök",
    KilleRank.KILLE: "kille",
}

_KILLE_WORDS: dict[str, KilleRank] = {str(n): KilleRank(n + 2) for n in range(1, 13)}
_KILLE_WORDS |= {
    "blaren": KilleRank.BLAREN, "blare": KilleRank.BLAREN, "blaret": KilleRank.BLAREN,
    "blompottan": KilleRank.BLOMPOTTAN, "blompotta": KilleRank.BLOMPOTTAN,
    "blompotten": KilleRank.BLOMPOTTAN,
    "kransen": KilleRank.KRANSEN, "krans": KilleRank.KRANSEN,
    "värdshus": KilleRank.VARDSHUS, "vardshus": KilleRank.VARDSHUS,
    "värdshuset": KilleRank.VARDSHUS, "vardshuset": KilleRank.VARDSHUS,
    "kavall": KilleRank.KAVALL, "kavallen": KilleRank.KAVALL,
    "svin": KilleRank.SVIN, "svinet": KilleRank.SVIN, "husu": KilleRank.SVIN,
    "husar": KilleRank.HUSAR, "husaren": KilleRank.HUSAR,
    "gök": KilleRank.GOK, "gok": KilleRank.GOK, "göken": KilleRank.GOK, "goken": KilleRank.GOK,
    "kuku": KilleRank.GOK,
    "kille": KilleRank.KILLE, "killen": KilleRank.KILLE, "harlekin": KilleRank.KILLE,
    "harlekinen": KilleRank.KILLE,
}  # fmt: skip

KILLE_DECK: tuple[KilleRank, ...] = tuple(r for r in KilleRank for _ in range(2))


def parse_kille_card(text: str) -> KilleRank:
    """A Kille card by name, alias or lilja number: ``blaren``, ``7``, ``husu``, ``harlekin``."""
    key = (text or "").strip().lower()
    if key in _KILLE_WORDS:
        return _KILLE_WORDS[key]
    valid = ", ".join(r.label for r in KilleRank)
    raise CardError(
        _(
            "'{text}' is not a Kille card: valid are {valid} "
            "(also husu = svin, kuku = gök, harlekin = kille)"
        ),
        text=(text or "").strip(),
        valid=valid,
    )
