"""An evening belongs to a `DuplicateCompetition` (same ids as the competitions it was
carried over from in 0004)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("duplicate", "0004_duplicate_competitions_carried_over")]

    operations = [
        migrations.AlterField(
            model_name='evening',
            name='competition',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='evenings', to='duplicate.duplicatecompetition', verbose_name='competition'),
        ),
    ]
