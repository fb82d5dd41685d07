"""League pages: standings per game and season, player pages, head-to-head, sharing.

The standings page reads materialised ``Standing`` rows (one query for the table, whatever its
length); everything on it is recomputed by ``league.incremental`` after each finished, undone
or voided game.
"""

from __future__ import annotations

import secrets
from datetime import date

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import club_view
from club.models import Club, Member, Role, Season
from club.seasons import current_season
from core import inputs
from core.tasks import enqueue_on_commit
from league.charts import line_chart
from league.forms import LeagueFormatForm, LeagueSettingsForm, SeasonForm
from league.models import GameResult, HeadToHead, RatingPoint, Standing
from league.names import game_names
from league.tasks import recompute_club_task


def _game_names() -> dict[str, str]:
    return game_names()


def _table_context(club: Club, params, *, shared: bool = False) -> dict:
    """The table of one game and season; on the public page (``shared``) without members' money
    unless the club shows it (``Club.public_league_money``)."""
    seasons = list(Season.objects.filter(club=club))
    if not seasons:
        seasons = [current_season(club)]
    season = next((s for s in seasons if str(s.pk) == params.get("season")), None)
    season = season or current_season(club)
    names = _game_names()
    keys = list(
        Standing.objects.filter(season=season)
        .values_list("game_key", flat=True)
        .distinct()
        .order_by()
    )
    keys.sort(key=lambda k: list(names).index(k) if k in names else 99)
    game_key = params.get("game") if params.get("game") in keys else (keys[0] if keys else "")
    rows = list(Standing.objects.filter(season=season, game_key=game_key).select_related("member"))
    league_format = rows[0].extra.get("league_format") if rows else None
    for row in rows:
        row.place, row.format_note = _format_place(row)
    provisional = club.provisional_games
    return {
        "format_sentence": format_sentence(league_format) if league_format else "",
        "seasons": seasons,
        "season": season,
        "games": [(k, names.get(k, k)) for k in keys],
        "game_key": game_key,
        "game_name": names.get(game_key, game_key),
        "rows": rows,
        "provisional_games": provisional,
        # The legend explains the provisional mark only when a row carries it.
        "any_provisional": any(
            row.rating is not None and row.rated_games < provisional for row in rows
        ),
        "shared": shared,
        "show_money": not shared or club.public_league_money,
    }


@require_safe
@club_view()
def standings(request: HttpRequest) -> HttpResponse:
    context = _table_context(request.club, request.GET)
    context["share_url"] = share_url(request, request.club) if request.member.is_admin else ""
    template = "league/league.html#table" if request.htmx else "league/league.html"
    return render(request, template, context)


@require_safe
def shared_standings(request: HttpRequest, token: str) -> HttpResponse:
    try:
        token = inputs.parse_token(token)  # the link's token, before any query uses it
    except ValidationError:
        raise Http404 from None
    club = None
    if len(token) >= 20:
        club = Club.objects.filter(league_share_token=token).first()
    if club is None:
        raise Http404
    context = _table_context(club, request.GET, shared=True)
    context["shared_club"] = club
    template = "league/league.html#table" if request.htmx else "league/league.html"
    return render(request, template, context)


@require_POST
@club_view(role=Role.ADMIN)
def share(request: HttpRequest) -> HttpResponse:
    club = request.club
    if request.POST.get("action") == "revoke":
        club.league_share_token = ""
        messages.success(request, _("The public league link no longer works."))
    else:
        club.league_share_token = secrets.token_urlsafe(32)
        messages.success(
            request, _("A new public league link was made; any older one stops working.")
        )
    club.save(update_fields=["league_share_token"])
    return redirect("league:standings", club_slug=club.slug)


@require_safe
@club_view()
def player(request: HttpRequest, member_id: int) -> HttpResponse:
    person = get_object_or_404(Member, pk=member_id, club=request.club)
    names = _game_names()
    keys = list(
        GameResult.objects.filter(member=person)
        .values_list("game_key", flat=True)
        .distinct()
        .order_by()
    )
    game_key = (
        request.GET.get("game") if request.GET.get("game") in keys else (keys[0] if keys else "")
    )
    results = list(
        GameResult.objects.filter(member=person, game_key=game_key).order_by("-finished_at")[:200]
    )
    ratings = list(
        RatingPoint.objects.filter(member=person, game_key=game_key).order_by("finished_at", "id")
    )
    rating_chart = line_chart(
        [(_day(p.finished_at), p.ordinal) for p in ratings[-60:]],
        _("Rating over time"),
    )
    money, running = [], 0
    for result in reversed(results):
        running += result.net_ore
        money.append((_day(result.finished_at), running / 100))
    money_chart = line_chart(money[-60:], _("Money over time (kr)"), decimals=0)
    season = current_season(request.club)
    h2h = list(
        HeadToHead.objects.filter(member=person, game_key=game_key, season=season)
        .select_related("opponent")
        .order_by("opponent__name")
    )
    ranked = sorted((row for row in h2h if row.wins + row.losses), key=lambda r: r.wins - r.losses)
    line = Standing.objects.filter(season=season, game_key=game_key, member=person).first()
    counted = line.extra.get("league_format") if line else None
    context = {
        "format_sentence": format_sentence(counted) if counted else "",
        "format_line": counted,
        "format_counted": _format_results(counted["counted"]) if counted else [],
        "format_dropped": _format_results(counted["dropped"]) if counted else [],
        "person": person,
        "games": [(k, names.get(k, k)) for k in keys],
        "game_key": game_key,
        "game_name": names.get(game_key, game_key),
        "results": results[:20],
        "rating": ratings[-1] if ratings else None,
        "rating_chart": rating_chart,
        "money_chart": money_chart,
        "net_total": GameResult.objects.filter(member=person, game_key=game_key).aggregate(
            s=Sum("net_ore")
        )["s"]
        or 0,
        "h2h": h2h,
        "best": ranked[-1] if ranked and ranked[-1].wins > ranked[-1].losses else None,
        "worst": ranked[0] if ranked and ranked[0].wins < ranked[0].losses else None,
        "season": season,
    }
    return render(request, "league/league_player.html", context)


@require_safe
@club_view()
def head_to_head(request: HttpRequest) -> HttpResponse:
    context = _table_context(request.club, request.GET)
    members = [row.member for row in context["rows"]]
    cells = {
        (member, opponent): (wins, losses)
        for member, opponent, wins, losses in HeadToHead.objects.filter(
            season=context["season"], game_key=context["game_key"]
        ).values_list("member_id", "opponent_id", "wins", "losses")
    }
    context["matrix"] = [(m, _h2h_row(m.pk, members, cells)) for m in members]
    context["members"] = members
    return render(request, "league/league_h2h.html", context)


def _h2h_row(member_id: int, members: list[Member], cells: dict) -> str:
    """A row of the head-to-head matrix: the cells of ``member_id`` against every column.

    Built here rather than in the template: a table of sixty holds 3,600 cells, and the
    template engine spent most of the page's time on them. Only numbers and fixed class names
    go in, so the markup is safe."""
    html = []
    for opponent in members:
        if opponent.pk == member_id:
            html.append('<td class="self">·</td>')
            continue
        cell = cells.get((member_id, opponent.pk))
        if cell is None:
            html.append('<td class="muted">–</td>')
            continue
        wins, losses = cell
        tone = " good" if wins > losses else " neg" if wins < losses else ""
        html.append(f'<td class="num{tone}">{_count(wins)}–{_count(losses)}</td>')
    return mark_safe("".join(html))  # noqa: S308 - integers and literals only


def _count(number: int) -> str:
    """A count as the template would show it (grouped digits where the locale groups them)."""
    return str(number) if number < 1000 else number_format(number)


def share_url(request: HttpRequest, club: Club) -> str:
    if not club.league_share_token:
        return ""
    return request.build_absolute_uri(reverse("league:shared", args=[club.league_share_token]))


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def settings_page(request: HttpRequest) -> HttpResponse:
    """League points, the provisional threshold, the league format, and the club's seasons."""
    club = request.club
    settings_form = LeagueSettingsForm(
        request.POST if request.POST.get("form") == "settings" else None, instance=club
    )
    season_form = SeasonForm(
        request.POST if request.POST.get("form") == "season" else None, club=club
    )
    format_form = LeagueFormatForm(
        request.POST if request.POST.get("form") == "format" else None, club=club
    )
    if request.method == "POST":
        form = {"settings": settings_form, "format": format_form}.get(
            request.POST.get("form"), season_form
        )
        saved = form.is_valid()
        if saved:
            try:
                form.save()  # a season: club.seasons.add_season, under the club's lock
            except ValidationError as error:  # another request added an overlapping one
                form.add_error(None, error)
                saved = False
        if saved:
            # Points, seasons, thresholds and the format change every table: rebuild them.
            enqueue_on_commit(recompute_club_task, club.pk)
            messages.success(request, _("Saved; the league tables are being recomputed."))
            return redirect("league:settings", club_slug=club.slug)
    seasons = Season.objects.filter(club=club)
    return render(
        request,
        "league/league_settings.html",
        {
            "settings_form": settings_form,
            "season_form": season_form,
            "format_form": format_form,
            "seasons": seasons,
        },
        status=422 if request.method == "POST" else 200,
    )


# --- The league format on the pages (league.formats; the table carries what it was built with)


def format_sentence(shape: dict) -> str:
    """The format a table was counted under, in one sentence: "Best 8 of 12 evenings; 1 point
    per evening played; at least 4 evenings to be ranked"."""
    evenings = shape["unit"] == "evening"
    best, of = shape["best"], shape["of"]
    values = {"best": best, "of": of}
    if best and of > best:
        first = (
            ngettext("Best %(best)d of %(of)d evening", "Best %(best)d of %(of)d evenings", of)
            if evenings
            else ngettext("Best %(best)d of %(of)d game", "Best %(best)d of %(of)d games", of)
        ) % values
    elif best:
        first = (
            ngettext(
                "The best %(best)d evening counts (%(of)d so far)",
                "The best %(best)d evenings count (%(of)d so far)",
                best,
            )
            if evenings
            else ngettext(
                "The best %(best)d game counts (%(of)d so far)",
                "The best %(best)d games count (%(of)d so far)",
                best,
            )
        ) % values
    else:
        first = _("Every evening counts") if evenings else _("Every game counts")
    parts = [first]
    if shape["table"]:
        parts.append(_("points from the table for the number of players"))
    per = shape["per"]
    if per:
        parts.append(
            (
                ngettext("%(n)d point per evening played", "%(n)d points per evening played", per)
                if evenings
                else ngettext("%(n)d point per game played", "%(n)d points per game played", per)
            )
            % {"n": per}
        )
    least = shape["minimum"]
    if least:
        parts.append(
            (
                ngettext(
                    "at least %(n)d evening to be ranked",
                    "at least %(n)d evenings to be ranked",
                    least,
                )
                if evenings
                else ngettext(
                    "at least %(n)d game to be ranked", "at least %(n)d games to be ranked", least
                )
            )
            % {"n": least}
        )
    return "; ".join(parts)


def _format_place(row: Standing) -> tuple[str, str]:
    """A table row's place as shown ("–" for a player not ranked yet; shared places stay
    shared under a format) and, under a format, its counted and dropped results."""
    line = row.extra.get("league_format")
    if not line:
        return str(row.rank), ""
    note = [_("counted %(points)s") % {"points": _points_list(line["counted"])}]
    if line["dropped"]:
        note.append(_("dropped %(points)s") % {"points": _points_list(line["dropped"])})
    if not line["rank"]:
        note.append(
            _("needs %(minimum)d, has %(has)d")
            % {"minimum": line["minimum"], "has": line["appearances"]}
        )
    return (str(line["rank"]) if line["rank"] else "–"), " · ".join(note)


def _points_list(results: list) -> str:
    return ", ".join(str(points) for _day_text, points in results) or "–"


def _format_results(results: list) -> list[tuple[str, int]]:
    return [(date_format(date.fromisoformat(day), "j b"), points) for day, points in results]


def _day(moment) -> str:
    """A chart's date label in the club's time zone and the page's language: "1 nov"."""
    return date_format(timezone.localtime(moment), "j b")
