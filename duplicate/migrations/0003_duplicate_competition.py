"""A duplicate competition its own model (issue 39): the tables; the rows follow in 0004."""

import clubs.inputs
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0007_history_duplicate_id'),
        ('duplicate', '0002_turn_drawn_at'),
    ]

    operations = [
        migrations.CreateModel(
            name='DuplicateCompetition',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, validators=[clubs.inputs.validate_plain_text], verbose_name='name')),
                ('slug', models.SlugField(verbose_name='short name')),
                ('rules', models.CharField(choices=[('standard', 'standard rules'), ('sbnl', 'SBNL tournament rules')], default='standard', max_length=20, verbose_name='rules')),
                ('start_date', models.DateField(blank=True, null=True, verbose_name='start date')),
                ('think_seconds', models.PositiveSmallIntegerField(default=180, help_text='The countdown on the room screen.', verbose_name='thinking time per turn (seconds)')),
                ('best_evenings', models.PositiveSmallIntegerField(blank=True, help_text="The season ranking averages each player's best evenings; empty: all of them.", null=True, verbose_name='best evenings that count')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('changed_at', models.DateTimeField(auto_now=True, verbose_name='last changed')),
                ('archived_at', models.DateTimeField(blank=True, null=True, verbose_name='archived')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='duplicate_competitions', to='clubs.club', verbose_name='club')),
            ],
            options={
                'verbose_name': 'duplicate competition',
                'verbose_name_plural': 'duplicate competitions',
                'ordering': ['-start_date', 'name'],
            },
        ),
        migrations.CreateModel(
            name='Participant',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('withdrawn_from_evening', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='withdrawn from evening')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='entered')),
                ('competition', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='participants', to='duplicate.duplicatecompetition', verbose_name='competition')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='duplicate_participations', to='clubs.player', verbose_name='player')),
            ],
            options={
                'verbose_name': 'participant',
                'verbose_name_plural': 'participants',
                'ordering': ['player__name'],
            },
        ),
        migrations.AddConstraint(
            model_name='duplicatecompetition',
            constraint=models.UniqueConstraint(fields=('club', 'slug'), name='duplicate_slug_per_club'),
        ),
        migrations.AddConstraint(
            model_name='participant',
            constraint=models.UniqueConstraint(fields=('competition', 'player'), name='participant_once'),
        ),
        migrations.AddConstraint(
            model_name='participant',
            constraint=models.CheckConstraint(condition=models.Q(('withdrawn_from_evening__isnull', True), ('withdrawn_from_evening__gte', 1), _connector='OR'), name='participant_withdrawn_from_an_evening'),
        ),
    ]
