"""Kille games recorded before staying became an event of the fold round (issue 14) replay with
``implied_stays``: their streams have only folds there (a fold skipped the players before it, who
stayed; the exchange or the second call closed the round). Events stay as they were; only the
game's setup, which ``new_game`` receives as keywords, is marked."""

from django.db import migrations


def mark_old_kille_games(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    for game in Game.objects.filter(game_key="kille").only("id", "setup"):
        if "implied_stays" not in game.setup:
            game.setup = {**game.setup, "implied_stays": True}
            game.save(update_fields=["setup"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_audit_events")]
    operations = [migrations.RunPython(mark_old_kille_games, migrations.RunPython.noop)]
