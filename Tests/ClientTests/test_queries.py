"""REST reference §14 items 10 and 11: queries with exact selections, index errors, and rules
that look at the query."""
import pytest
from firebase_admin import exceptions

from conftest import ref

DINOS = {
    "bruhathkayosaurus": {"height": 25, "length": 44, "weight": 135000, "ratings": {"pos": 1}},
    "earlosaurus": {"height": 1.3, "length": 1.5, "weight": 135000, "ratings": {"pos": 2}},
    "linhenykus": {"height": 0.6, "length": 1, "weight": 3, "ratings": {"pos": 3}},
    "pterodactyl": {"height": 0.6, "length": 0.8, "weight": 2, "ratings": {"pos": 4}},
    "stegosaurus": {"height": 4, "length": 9, "weight": 2500, "ratings": {"pos": 5}},
    "triceratops": {"height": 3, "length": 8, "weight": 11000, "ratings": {"pos": 6}},
}
SCORES = {"pterodactyl": 3, "stegosaurus": 5, "triceratops": 22, "linhenykus": 80, "earlosaurus": 21}
PATH = "_adminsdk/python/dinodb"
RULES = {"rules": {".read": True, ".write": True, "_adminsdk": {"python": {"dinodb": {
    "dinosaurs": {".indexOn": ["height", "ratings/pos"]}, "scores": {".indexOn": ".value"}}}}}}


@pytest.fixture
def dinos(serve, apps):
    serve(RULES)
    admin = apps()
    ref(admin, PATH).set({"dinosaurs": DINOS, "scores": SCORES})
    return ref(admin, f"{PATH}/dinosaurs"), ref(admin, f"{PATH}/scores")


def test_order_by_child_with_filters(dinos):
    d, _ = dinos
    assert list(d.order_by_child("height").limit_to_first(2).get()) == ["linhenykus", "pterodactyl"]
    assert list(d.order_by_child("height").limit_to_last(2).get()) == ["stegosaurus", "bruhathkayosaurus"]
    assert list(d.order_by_child("height").start_at(3.5).get()) == ["stegosaurus", "bruhathkayosaurus"]
    assert list(d.order_by_child("height").end_at(3.5).get()) == ["linhenykus", "pterodactyl", "earlosaurus", "triceratops"]
    assert list(d.order_by_child("height").equal_to(0.6).get()) == ["linhenykus", "pterodactyl"]
    assert list(d.order_by_child("ratings/pos").limit_to_last(2).get()) == ["stegosaurus", "triceratops"]
    assert list(d.order_by_key().limit_to_first(2).get()) == ["bruhathkayosaurus", "earlosaurus"]
    assert list(d.order_by_key().start_at("p").end_at("t").get()) == ["pterodactyl", "stegosaurus"]


def test_order_by_value(dinos):
    _, s = dinos
    assert list(s.order_by_value().limit_to_last(3).get()) == ["earlosaurus", "triceratops", "linhenykus"]
    assert list(s.order_by_value().start_at(5).end_at(21).get()) == ["stegosaurus", "earlosaurus"]


def test_a_query_without_its_index_is_refused(dinos):
    d, _ = dinos
    with pytest.raises(exceptions.InvalidArgumentError) as refused:
        d.order_by_child("weight").get()
    assert str(refused.value) == (
        'Index not defined, add ".indexOn": "weight", for path "/_adminsdk/python/dinodb/dinosaurs", to the rules')


ITEMS = {"rules": {"items": {
    ".read": "auth != null && query.orderByChild === 'owner' && query.equalTo === auth.uid",
    ".write": True, ".indexOn": "owner"}}}


def test_query_based_rules(serve, apps):
    serve(ITEMS)
    admin, bob = apps(), apps({"uid": "bob"})
    ref(admin, "items").set({"a": {"owner": "alice"}, "b": {"owner": "bob"}, "c": {"owner": "bob"}})
    assert ref(bob, "items").order_by_child("owner").equal_to("bob").get() == {"b": {"owner": "bob"}, "c": {"owner": "bob"}}
    with pytest.raises(exceptions.UnauthenticatedError):
        ref(bob, "items").get()
    with pytest.raises(exceptions.UnauthenticatedError):
        ref(bob, "items").order_by_child("owner").equal_to("alice").get()
    assert ref(bob, "items").order_by_child("owner").equal_to("bob").limit_to_first(1).get() == {"b": {"owner": "bob"}}
