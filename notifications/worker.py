"""The worker beside the server, in one process: `bordpunt run` starts it in a thread, so
a club's laptop needs no second program. The hosted service runs `manage.py db_worker`
as processes of their own instead (docs/deployment.md), as many as it likes: each claims
a task under a lock of the database, so no two run the same one.
"""

from __future__ import annotations

import logging
import threading

from django.db import connections
from django_tasks_db.management.commands.db_worker import Worker

logger = logging.getLogger(__name__)

#: Seconds between looks at the queue when it is empty, and after a worker's fault.
INTERVAL = 1.0
PAUSE_AFTER_FAULT = 5.0


class WorkerThread:
    """The library's worker loop in a daemon thread; `stop()` ends it after its task."""

    def __init__(self) -> None:
        self.worker = Worker(
            queue_names=["default"],
            interval=INTERVAL,
            batch=False,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id=f"thread-{threading.get_native_id()}",
            excluded_queue_names=[],
        )
        self._stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="bordpunt-worker", daemon=True)

    def start(self) -> WorkerThread:
        from notifications.tasks import due_schedule_ensure

        due_schedule_ensure()
        self.thread.start()
        return self

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                self.worker.run()
            except Exception:
                # A database that is briefly away must not end the mail for the evening.
                logger.exception("The notification worker stopped; it starts again.")
                self._stopped.wait(PAUSE_AFTER_FAULT)
            finally:
                connections.close_all()

    def stop(self, timeout: float = 10.0) -> None:
        self._stopped.set()
        self.worker.running = False
        self.thread.join(timeout)
