from django.urls import reverse


def test_the_hand_calculator_counts_tapped_cards_without_login(client):
    url = reverse("scoring:calc-cribbage-hand")
    response = client.get(url, {"cards": ["5H", "5S", "10C", "KH"], "starter": "2D"})
    assert response.status_code == 200
    assert response.context["breakdown"].total == 10
    assert "femton 2, femton 4, femton 6, femton 8, ett par är 10" in response.content.decode()


def test_the_hand_calculator_reads_typed_cards_and_cribs(client):
    url = reverse("scoring:calc-cribbage-hand")
    response = client.get(url, {"text": "2s 4s 6s 8s kh", "crib": "1"})
    assert response.context["breakdown"].total == 0
    response = client.get(url, {"text": "5h 5s 5c jd 5d"}, HTTP_HX_REQUEST="true")
    assert response.context["breakdown"].total == 29
    assert response.content.decode().lstrip().startswith('<section id="result"')


def test_the_hand_calculator_explains_bad_input(client):
    url = reverse("scoring:calc-cribbage-hand")
    for params in (
        {"text": "5h 5h 5c jd 5d"},  # a card twice
        {"text": "5h 5s 5c"},  # too few
        {"text": "5h 5s 5c jd 5x"},  # no such card
        {"cards": ["5H", "5S", "5C"], "starter": "5D"},
        {"cards": ["5H", "5S", "5C", "JD"]},  # no starter
    ):
        response = client.get(url, params)
        assert response.status_code == 200
        assert response.context["error"], params
        assert "breakdown" not in response.context


def test_the_discard_adviser_ranks_throws(client):
    url = reverse("scoring:calc-cribbage-discard")
    response = client.get(url, {"cards": ["5H", "5S", "JD", "KC", "4C", "9H"], "dealer": "1"})
    advice = response.context["advice"]
    assert len(advice) == 6
    assert advice[0].total >= advice[-1].total
    bad = client.get(url, {"cards": ["5H", "5S", "JD"], "dealer": "1"})
    assert bad.context["error"]
