from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        # Path converters with a range (`<id:game_id>`, `<number:number>`), for every URLconf.
        from django.urls import register_converter

        from clubs.inputs import CONVERTERS

        for name, converter in CONVERTERS.items():
            # The stubs want `regex` an attribute; ours is a property, which Django only reads.
            register_converter(converter, name)  # type: ignore[arg-type]

        from clubs.history_display import moment_text, register
        from clubs.models import ClubStatus, Membership

        register(
            choices={"role": Membership.Role.choices, "club_status": ClubStatus.choices},
            texts={"archive_downloaded_at": moment_text},
        )
