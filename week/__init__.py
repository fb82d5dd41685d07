"""The club's week (issue 28): evenings planned ahead from a weekly schedule
(``week.planning``), members' replies with a cap and a wait-list (``week.replies``), a secret
calendar feed per member (``week.feed``), the pages (``week.views``) and the beat tasks
(``week.tasks``).

Layering: ``week`` stands on ``evenings`` and ``notices`` (the mails it queues); only
``scoring`` and ``clubdata`` may import it. The evenings learn who replied through
``evenings.attendance.register_expected`` (tonight's check-in starts from the replies), the
start page shows the coming evenings through ``club.panels``.
"""
