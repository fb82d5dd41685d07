import pytest

from engine.cards import (
    ACE,
    FULL_DECK,
    JACK,
    KILLE_DECK,
    KING,
    QUEEN,
    Card,
    KilleRank,
    Suit,
    parse_card,
    parse_cards,
    parse_kille_card,
    require_distinct,
    stripped_deck,
)
from engine.errors import CardError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5H", Card(5, Suit.HEARTS)),
        ("5h", Card(5, Suit.HEARTS)),
        ("10D", Card(10, Suit.DIAMONDS)),
        ("10d", Card(10, Suit.DIAMONDS)),
        ("TD", Card(10, Suit.DIAMONDS)),
        ("hj5", Card(5, Suit.HEARTS)),
        ("sp10", Card(10, Suit.SPADES)),
        ("kl kn", Card(JACK, Suit.CLUBS)),
        ("♥5", Card(5, Suit.HEARTS)),
        ("5♠", Card(5, Suit.SPADES)),
        ("AS", Card(ACE, Suit.SPADES)),
        ("KD", Card(KING, Suit.DIAMONDS)),
        ("qc", Card(QUEEN, Suit.CLUBS)),
        ("ess spader", Card(ACE, Suit.SPADES)),
        ("hjärter dam", Card(QUEEN, Suit.HEARTS)),
        ("ruter kung", Card(KING, Suit.DIAMONDS)),
        ("klöver knekt", Card(JACK, Suit.CLUBS)),
        ("queen of hearts", Card(QUEEN, Suit.HEARTS)),
        ("jack spades", Card(JACK, Suit.SPADES)),
        ("ten of diamonds", Card(10, Suit.DIAMONDS)),
        ("  sp  e ", Card(ACE, Suit.SPADES)),
        ("joker", Card(0, None)),
    ],
)
def test_it_reads_the_notations_people_type(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "5", "H", "11H", "1X", "ZZ", "hj", "5H5", "kn", "15"])
def test_it_rejects_nonsense_naming_the_text_and_what_is_valid(text):
    with pytest.raises(CardError) as excinfo:
        parse_card(text)
    message = str(excinfo.value)
    assert "5H" in message  # says what would be valid
    if text.strip():
        assert text.strip() in message


def test_cards_print_in_the_short_notation_and_with_suit_symbols():
    assert str(Card(10, Suit.DIAMONDS)) == "10D"
    assert str(Card(JACK, Suit.SPADES)) == "JS"
    assert Card(ACE, Suit.HEARTS).pretty == "A♥"
    assert [str(parse_card(str(c))) for c in FULL_DECK] == [str(c) for c in FULL_DECK]


def test_it_reads_several_cards_including_two_word_ones():
    assert parse_cards("5h 5s 5c jd 5d") == [
        Card(5, Suit.HEARTS),
        Card(5, Suit.SPADES),
        Card(5, Suit.CLUBS),
        Card(JACK, Suit.DIAMONDS),
        Card(5, Suit.DIAMONDS),
    ]
    assert parse_cards("kl kn, hjärter dam, 10d") == [
        Card(JACK, Suit.CLUBS),
        Card(QUEEN, Suit.HEARTS),
        Card(10, Suit.DIAMONDS),
    ]


def test_it_names_the_bad_word_among_several_cards():
    with pytest.raises(CardError, match="'7x'"):
        parse_cards("5h 7x")


def test_a_card_given_twice_is_refused_where_cards_must_differ():
    with pytest.raises(CardError, match="twice"):
        require_distinct(parse_cards("5h 5H"))


def test_decks_have_the_right_sizes_and_keep_the_high_cards():
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52
    assert len(stripped_deck(32)) == 32
    assert {c.rank for c in stripped_deck(28)} == {ACE, KING, QUEEN, JACK, 10, 9, 8}
    assert len(stripped_deck(36, jokers=1)) == 37
    with pytest.raises(CardError):
        stripped_deck(30)


def test_the_kille_deck_has_two_of_each_of_21_ranks_lowest_first():
    assert len(KILLE_DECK) == 42
    assert min(KilleRank) is KilleRank.BLAREN
    assert max(KilleRank) is KilleRank.KILLE
    assert KilleRank.KRANSEN < KilleRank.ONE < KilleRank.TWELVE < KilleRank.VARDSHUS
    assert KilleRank.SEVEN.number == 7
    assert KilleRank.SEVEN.label == "7"


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("blaren", KilleRank.BLAREN),
        ("Blompottan", KilleRank.BLOMPOTTAN),
        ("7", KilleRank.SEVEN),
        ("12", KilleRank.TWELVE),
        ("värdshus", KilleRank.VARDSHUS),
        ("husu", KilleRank.SVIN),
        ("svin", KilleRank.SVIN),
        ("kuku", KilleRank.GOK),
        ("gök", KilleRank.GOK),
        ("harlekin", KilleRank.KILLE),
        ("kille", KilleRank.KILLE),
    ],
)
def test_it_reads_kille_cards_and_their_aliases(text, rank):
    assert parse_kille_card(text) is rank


@pytest.mark.parametrize("text", ["13", "0", "kung", "", "5H"])
def test_it_rejects_what_is_not_a_kille_card(text):
    with pytest.raises(CardError, match="not a Kille card: valid are blaren"):
        parse_kille_card(text)
