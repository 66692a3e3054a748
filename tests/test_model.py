"""The model's records: quick_init builds the same frozen instances as dataclass's own __init__."""
import dataclasses

import pytest

from bookbuilder.diagnostics import Diagnostic
from bookbuilder.model import Chapter, Location, Paragraph, SceneBreak, quick_init

AT = Location("ch.txt", 3)
CASES = [
    (Location, ("ch.txt",), {}),
    (Location, ("ch.txt", 7), {}),
    (Location, (), {"line": 7, "path": "ch.txt"}),
    (Paragraph, ("正文", AT), {}),
    (Paragraph, ("正文", AT, True), {}),
    (Paragraph, (), {"text": "正文", "at": AT, "indented": True}),
    (SceneBreak, (AT,), {}),
    (Chapter, ("第1章", (Paragraph("正文", AT),), AT), {}),
    (Chapter, ("序", (), AT), {"kind": "front", "number": 0, "file_number": 1}),
    (Diagnostic, ("W201", "unbalanced"), {}),
    (Diagnostic, ("W201", "unbalanced", AT), {}),
]


def _generated_twin(cls):
    """The same fields under dataclass's own generated __init__."""
    return dataclasses.make_dataclass(cls.__name__, [(f.name, f.type, f) for f in dataclasses.fields(cls)],
                                      frozen=True, slots=True)


@pytest.mark.parametrize("cls, args, kwargs", CASES)
def test_quick_init_sets_what_dataclass_init_sets(cls, args, kwargs):
    ours, twin = cls(*args, **kwargs), _generated_twin(cls)(*args, **kwargs)
    assert dataclasses.astuple(ours) == dataclasses.astuple(twin)
    assert ours == cls(*args, **kwargs) and hash(ours) == hash(cls(*args, **kwargs))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(ours, dataclasses.fields(cls)[0].name, None)


def test_quick_init_refuses_what_it_cannot_build():
    with pytest.raises(TypeError):
        quick_init(dataclasses.dataclass(frozen=True, slots=True)(
            type("Listed", (), {"__annotations__": {"items": list}, "items": dataclasses.field(default_factory=list)})))
    with pytest.raises(TypeError):
        Location("a", 1, 2)  # too many arguments, as with dataclass's own __init__
