"""One writing build and the records of the last clean one: what it is handed, what it
leaves for the next.

The pipeline (``toolc.pipeline``) asks, in a writing build, at its turns between the
stages: before anything, whether the output is up to date (``toolc.reuse.noop``); before
the specs are loaded, which components' analysis is handed as it was
(``toolc.reuse.components``), with their modules' code, verdicts and golden files;
once the rest is analysed, the code and verdicts of every module whose key is unchanged
(``toolc.reuse.modules``) and the golden texts a warm process made of it
(``toolc.reuse.memory``); before the output is replaced, to forget the no-op record;
after a clean write, to record the build. A checking build never comes here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

from ..budget import from_record
from ..certify.verdicts import Verdict
from ..config import Config
from ..diagnostics import COMPARISON_CODES
from ..frontend import Compiled
from ..output.plan import Plan
from ..specs import discover, shown_path, sources_of
from . import components, modules
from .components import Taken
from .handed import Handed
from .inputs import environment_text, read_specs
from .memory import MEMORY
from .modules import Entries, ModuleReuse
from .noop import (
    cache_record,
    cached_plan,
    forget_build,
    input_key,
    remember_build,
    remembered,
    replayed,
)


class LastBuild:
    """A writing build's side of the records (read only when ``open`` was told to)."""

    def __init__(self, config: Config, *, certify: bool) -> None:
        self.config = config
        self.certify = certify
        self.read: dict[Path, bytes] | None = None  # each spec's bytes, as keyed
        self.key: str | None = None                 # the no-op record's key
        self.environment = ""
        self.digests: dict[str, str] = {}           # each spec, as shown -> sha256
        self._entries: Entries | None = None        # modules.json, once read back
        self.taken: Taken | None = None             # the components taken over
        self.taken_reuse: ModuleReuse | None = None  # what their modules reuse
        self.reuse: ModuleReuse | None = None       # what every module reuses

    @classmethod
    def open(cls, config: Config, *, certify: bool, records: bool) -> LastBuild:
        """``records``: read the records (False: the build runs every stage, and only
        forgets the no-op record before replacing the output). A spec that cannot be
        read (the build reports it) has no record read either."""
        last = cls(config, certify=certify)
        if records:
            specs = discover(config)
            last.read = read_specs(config, specs)
            if last.read is not None:
                last.key = input_key(config, specs, last.read)
        return last

    def entries(self) -> Entries:
        """The per-module record's entries, read when first needed (a build with errors
        in its specs never reads it)."""
        if self._entries is None:
            self._entries = modules.entries(self.config)
        return self._entries

    def up_to_date(self) -> tuple[Plan, Compiled] | None:
        """The no-op answer, when nothing the output depends on changed (None: build):
        the output's plan (nothing to change) and what the last build said (its warnings
        and infos, its budget figures)."""
        if self.key is None:
            return None
        plan = cached_plan(self.config, self.key, certify=self.certify)
        if plan is None:
            return None
        compiled = Compiled(self.config.bag())
        compiled.bag.extend(replayed(self.config))
        compiled.sources = sources_of(self.config, compiled.bag)
        compiled.budgets = from_record(remembered(self.config, "budget"))
        return plan, compiled

    def hand_analysis(self, handed: Handed) -> None:
        """Before loading: the components whose every input is unchanged, their analysis
        replayed and their golden files kept, if their modules' code (and, certifying,
        verdicts) can all be reused too (else they are analysed: a taken module needs
        its IR to be made again)."""
        if self.read is None:
            return
        config = self.config
        self.environment = environment_text(config)
        shown = {shown_path(config, path): data for path, data in self.read.items()}
        self.digests = {spec: hashlib.sha256(data).hexdigest() for spec, data in shown.items()}
        taken = components.take_over(config, self.environment, self.digests)
        if taken is None:
            return
        reuse = _taken_reuse(config, taken, self.entries(), certify=self.certify)
        replay = taken.replay(shown)
        if replay is None or not modules.covers(reuse, taken.graph, certify=self.certify):
            return
        self.taken, self.taken_reuse = taken, reuse
        handed.analysis, handed.kept, handed.read = replay, taken.golden, taken.golden_read()

    def hand_modules(self, handed: Handed, compiled: Compiled) -> None:
        """Once analysed: per module whose key is unchanged, its code and verdict, and the
        golden texts this process made of it."""
        project = compiled.project
        if self.read is None or project is None:
            return
        if compiled.taken is None:  # the front end analysed every spec after all
            self.taken = self.taken_reuse = None
            handed.kept, handed.read = {}, {}
        self.reuse = reuse = modules.prepare(
            self.config, project, compiled.sources, self.environment, self.entries(),
            certify=self.certify, taken=self.taken_reuse)
        handed.code, handed.verdicts = dict(reuse.texts), dict(reuse.verdicts)
        if MEMORY.enabled:
            handed.golden = {name: files for name, (key, files) in MEMORY.golden.items()
                             if name in project.modules and reuse.keys.get(name) == key}

    def keep_golden(self, published: Mapping[str, dict[str, str]]) -> None:
        """The golden texts of each module published, kept by key in a warm process."""
        if MEMORY.enabled and self.reuse is not None:
            for name, files in published.items():
                MEMORY.golden[name] = (self.reuse.keys[name], files)

    def forget(self) -> None:
        """Before the output is replaced: the no-op record must never describe an output
        being replaced."""
        forget_build(self.config)

    def remember(self, compiled: Compiled, files: Mapping[str, str],
                 judged: Mapping[str, Verdict]) -> None:
        """The records of a clean writing build, for the next one: per module, per
        component, and (with its warnings: an up-to-date build says them again) the
        whole. ``judged``: the verdict of each module certification served."""
        config, reuse, project = self.config, self.reuse, compiled.project
        if self.key is None or reuse is None or project is None:
            return
        reuse.fresh = dict(judged)
        modules.remember(config, files, reuse, self.entries(), certified=self.certify)
        components.remember(config, self.environment, project, compiled.bag,
                            compiled.budgets or (), files, self.digests, self.taken)
        lookups = {name: list(outcome) for inputs in project.inputs.values()
                   for name, outcome in inputs.code}
        for component in self.taken.components if self.taken is not None else ():
            lookups.update(component.code)
        said = [d for d in compiled.bag if d.code not in COMPARISON_CODES]  # another base next
        record = cache_record(config, self.key, certified=self.certify, diagnostics=said,
                              code=reuse.user_code, schemas=reuse.schema_files,
                              lookups=lookups)
        record["budget"] = [b.as_json() for b in compiled.budgets or ()]
        remember_build(config, record)


def _taken_reuse(config: Config, taken: Taken, entries: Entries, *,
                 certify: bool) -> ModuleReuse:
    """What the modules of the taken components reuse: their keys as recorded (every
    input of theirs is as it was), their code and verdicts."""
    keys = {name: entries[name]["key"] for name in taken.graph if name in entries}
    certifiable = {name for c in taken.components if c.user_code is not None
                   for name in c.modules}
    reuse = modules.plan_reuse(config, keys, entries, certify=certify, certifiable=certifiable)
    reuse.schema_files, reuse.user_code = taken.schemas, taken.user_code
    return reuse
