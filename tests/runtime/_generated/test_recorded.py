"""Class statements of a generated module recorded at import and made at first use,
exercised on real module objects run from source the way generated code is written."""

from __future__ import annotations

import sys
import textwrap
import typing
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from toolc.runtime._generated.recorded import ClassRecorder, Later, Recipe

HEAD = '''
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from toolc.runtime import _generated as rtg

if TYPE_CHECKING:
    from typing import Protocol

    from pydantic import BaseModel, ConfigDict, Field
else:
    _classes = rtg.ClassRecorder()
    BaseModel, ConfigDict, Field, Protocol = _classes.stand_ins(
        "BaseModel", "ConfigDict", "Field", "Protocol")
'''


@pytest.fixture
def load() -> Iterator[Any]:
    """Run module source as a real module in sys.modules; removed afterwards."""
    made: list[str] = []

    def run(name: str, body: str) -> ModuleType:
        mod = ModuleType(name)
        sys.modules[name] = mod
        made.append(name)
        exec(compile(HEAD + textwrap.dedent(body), f"<{name}>", "exec"), mod.__dict__)  # noqa: S102
        return mod

    yield run
    for name in made:
        sys.modules.pop(name, None)


def test_a_class_statement_is_only_recorded_until_first_use(load: Any) -> None:
    mod = load("rec_basic", '''
    class Point(BaseModel):
        """A point."""

        model_config = ConfigDict(extra="forbid", strict=True)

        x: Annotated[int, Field(ge=0)] = Field(description="Across.")
        tags: list[Annotated[str, Field(max_length=3)]] = Field([], description="Tags.")

    _lazy = rtg.LazyModule(globals(), _classes)
    __getattr__ = _lazy.getattr
    ''')
    assert "Point" not in vars(mod)  # taken out of the globals: the module makes it
    # No class was made (counting all subclasses would count the other tests' dead ones
    # too, which a collection may take away meanwhile: it failed once in 20 runs).
    assert not [c for c in BaseModel.__subclasses__() if c.__module__ == "rec_basic"]
    point = mod.Point
    assert issubclass(point, BaseModel) and vars(mod)["Point"] is point
    assert (point.__name__, point.__qualname__, point.__module__) == ("Point", "Point", "rec_basic")
    assert point.__doc__ == "A point."
    assert point.model_fields["x"].description == "Across."
    assert point.model_validate({"x": 1, "tags": ["abc"]}).tags == ["abc"]
    # constraints written inside annotations are pydantic's own, not recordings
    with pytest.raises(ValidationError):
        point.model_validate({"x": -1})
    with pytest.raises(ValidationError):
        point.model_validate({"x": 1, "tags": ["abcd"]})
    with pytest.raises(ValidationError):
        point.model_validate({"x": 1, "extra": 1})


def test_field_records_while_importing_and_is_pydantics_afterwards() -> None:
    recorder = ClassRecorder()
    (field,) = recorder.stand_ins("Field")
    recorded = field(3, description="d")
    assert isinstance(recorded, Later)
    made = recorded.make()
    assert isinstance(made, FieldInfo) and made.default == 3 and made.description == "d"
    assert recorder.take({}) == {}
    assert isinstance(field(description="d"), FieldInfo)


def test_needs_are_made_first_and_cycles_together(load: Any) -> None:
    mod = load("rec_cycle", '''
    class Folder(BaseModel):
        files: list[File] = Field([])
        owner: Owner | None = None

    class File(BaseModel):
        folder: Folder | None = None

    class Owner(BaseModel):
        name: str

    _lazy = rtg.LazyModule(globals(), _classes, needs={"Folder": ["Owner"]},
                          cycles=[["Folder", "File"]])
    __getattr__ = _lazy.getattr
    ''')
    folder = mod.Folder
    assert {"Folder", "File", "Owner"} <= set(vars(mod))
    assert mod.File.__pydantic_complete__ and folder.__pydantic_complete__
    value = folder.model_validate({"files": [{"folder": {"files": []}}], "owner": {"name": "n"}})
    assert isinstance(value.files[0].folder, folder)
    with pytest.raises(ValidationError):
        folder.model_validate({"files": [{"folder": {"files": 1}}]})


def test_a_reference_resolved_at_first_validation_keeps_annotation_constraints(
        load: Any) -> None:
    """A class made before a name it uses exists (a cycle across modules) is completed
    by pydantic at its first validation: Field in its annotations is pydantic's then."""
    mod = load("rec_late", '''
    class Holder(BaseModel):
        item: Later_ | None = None
        code: Annotated[str, Field(max_length=2)] = "ab"

    _lazy = rtg.LazyModule(globals(), _classes)
    __getattr__ = _lazy.getattr
    ''')
    holder = mod.Holder
    assert not holder.__pydantic_complete__
    mod.Later_ = int  # the name arrives later, as another module finishes
    assert holder.model_validate({"item": 1, "code": "xy"}).item == 1
    with pytest.raises(ValidationError):
        holder.model_validate({"code": "xyz"})


def test_a_protocol_is_made_as_a_typing_protocol(load: Any) -> None:
    mod = load("rec_protocol", '''
    class Handler(Protocol):
        """Says hello."""

        def __call__(self, ctx: Any, /, *, name: str) -> str: ...

    _lazy = rtg.LazyModule(globals(), _classes)
    __getattr__ = _lazy.getattr
    ''')
    handler = mod.Handler
    assert getattr(handler, "_is_protocol", False)
    assert handler.__doc__ == "Says hello." and handler.__module__ == "rec_protocol"
    assert typing.get_type_hints(handler.__call__) == {"ctx": Any, "name": str, "return": str}


def test_a_name_set_before_first_use_is_kept_and_dir_lists_recipes(load: Any) -> None:
    mod = load("rec_kept", '''
    class Kept(BaseModel):
        x: int

    _lazy = rtg.LazyModule(globals(), _classes)
    __getattr__ = _lazy.getattr
    __dir__ = _lazy.dir
    ''')
    assert "Kept" in dir(mod)
    stand_in = object()
    mod.Kept = stand_in
    assert mod.Kept is stand_in


def test_a_recipe_says_what_it_is() -> None:
    recipe = Recipe("model", "Thing", {"__module__": "somewhere"})
    assert repr(recipe) == "<recorded model somewhere.Thing>"
