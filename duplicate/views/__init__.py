"""The pages of a duplicate evening, one module per whose pages they are: the public
evenings, rankings, room screen and papers (`public`), the secretary's pages of the
competition (`competitions`), the spelleider's of an evening (`evenings`), the player's
slip on their phone (`slips`), the jury room (`jury`), who was at an evening
(`presence`); what they share is `shared`.

Thin: each view reads through `duplicate.selectors`, writes through one service of
`duplicate.services`, and shows its refusal. The spelleider and the secretary are the
club's secretaries; a player hands in only their own slip.
"""
