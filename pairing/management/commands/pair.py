"""Pair a round from the command line: generate (or only show, with --dry-run).

Through the services the pages use: the round is added as *Add round* adds it (its history
entry, the club lock, the check of its number) and paired as *Generate* pairs it.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Player
from competition import selectors
from competition.management.commands._lookup import competition_from_argument
from competition.services import CompetitionError
from pairing.services import round_create_and_pair, round_pairing_preview


class Command(BaseCommand):
    help = "Pair round N of COMPETITION (default: the next round, created when missing)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("competition")
        parser.add_argument("--round", type=int, dest="number")
        parser.add_argument("--system", choices=["swiss", "rr", "koth", "random"])
        parser.add_argument("--after-round", type=int, dest="standings_round")
        parser.add_argument("--seed", type=int)
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--format", choices=["table", "json"], default="table")

    def handle(self, *args, competition: str, number: int | None, dry_run: bool, **options):
        competition_obj = competition_from_argument(competition)
        arguments = {
            "system": options["system"],
            "standings_round": options["standings_round"],
            "seed": options["seed"],
        }
        try:
            if dry_run:
                round_obj = selectors.round_or_next(competition_obj, number)
                result = round_pairing_preview(round=round_obj, **arguments)
            else:
                round_obj, result = round_create_and_pair(
                    competition=competition_obj, number=number, **arguments
                )
        except CompetitionError as error:
            raise CommandError(str(error.message)) from None
        number = round_obj.number
        if options["format"] == "json":
            self.stdout.write(json.dumps(self._document(number, result, dry_run), indent=2))
        else:
            self.stdout.write(self._table(number, result, dry_run))

    def _document(self, number, result, dry_run) -> dict:
        return {
            "round": number,
            "system": result.system,
            "dry_run": dry_run,
            "weight": result.weight,
            "pairs": [
                {
                    "table": pair.table,
                    "player_a": pair.player_a,
                    "player_b": pair.player_b,
                    "starter": pair.starter,
                    "match_point_gap": pair.match_point_gap,
                    "board_point_gap": pair.board_point_gap,
                    "meetings": pair.meetings,
                }
                for pair in result.pairs
            ],
            "tables": [
                {
                    "table": table.number,
                    "players": list(table.players),
                    "starter": table.starter,
                    "match_point_spread": table.match_point_spread,
                    "repeat_meetings": table.repeat_meetings,
                }
                for table in result.tables
            ],
            "bye": result.byes[0] if result.byes else None,
            "byes": list(result.byes),
        }

    def _table(self, number, result, dry_run) -> str:
        ids = {p for pair in result.pairs for p in (pair.player_a, pair.player_b)}
        ids |= {p for table in result.tables for p in table.players}
        names = dict(Player.objects.filter(pk__in=ids | set(result.byes)).values_list("pk", "name"))
        lines = [
            f"Round {number} ({result.system}){' — dry run, nothing saved' if dry_run else ''}"
        ]
        for pair in result.pairs:
            repeat = f"  repeat x{pair.meetings}" if pair.meetings else ""
            starter = f"  starts: {names[pair.starter]}" if pair.starter else ""
            lines.append(
                f"{pair.table:>3}  {names[pair.player_a]:<26} – {names[pair.player_b]:<26}"
                f" MP gap {pair.match_point_gap:g}  BP gap {pair.board_point_gap}{repeat}{starter}"
            )
        for table in result.tables:
            repeat = f"  repeats {table.repeat_meetings}" if table.repeat_meetings else ""
            starter = f"  starts: {names[table.starter]}" if table.starter else ""
            lines.append(
                f"{table.number:>3}  {' – '.join(names[p] for p in table.players)}"
                f"  MP spread {table.match_point_spread:g}{repeat}{starter}"
            )
        lines += [f"bye  {names[bye]}" for bye in result.byes]
        return "\n".join(lines)
