"""Femhundra games recorded before the auction was recorded (issue 14) name the declarer and
contract in their deals; they replay (and may go on) with ``legacy_deals``. Events stay as they
were; only the game's setup, which ``new_game`` receives as keywords, is marked."""

from django.db import migrations


def mark_old_femhundra_games(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    for game in Game.objects.filter(game_key="femhundra").only("id", "setup"):
        if "legacy_deals" not in game.setup:
            game.setup = {**game.setup, "legacy_deals": True}
            game.save(update_fields=["setup"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0004_kille_implied_stays")]
    operations = [migrations.RunPython(mark_old_femhundra_games, migrations.RunPython.noop)]
