"""Files to and from other programs: TSH's `.t` files read into a competition and written
from one (docs/tsh.md). The pure reading and writing is `interchange.core`.

It sits above `competition`, whose rows it reads and writes; `competition` never imports it.

Django: the AppConfig.
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InterchangeConfig(AppConfig):
    name = "interchange"
    verbose_name = _("Files of other programs")
