"""Legal commands too many to build (set-up placements) are lazy sequences that behave like lists."""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from aero_events.core import CommandChain, CommandProduct, chain_commands
from tests.support.bidding import Bid


def make(player, amount):
    return Bid(player=player, amount=amount)


@given(st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=3))
def test_a_command_product_indexes_like_the_list_of_every_combination(sizes):
    axes = [["alice", "bob"]] + [list(range(n)) for n in sizes]

    def build(player, *numbers):
        return make(player, sum(numbers))

    lazy = CommandProduct(build, axes)
    eager = [build(*values) for values in itertools.product(*axes)]
    assert len(lazy) == len(eager)
    assert list(lazy) == eager
    assert [lazy[i] for i in range(len(lazy))] == eager
    if eager:
        assert lazy[-1] == eager[-1] and lazy[1:3] == eager[1:3]


def test_a_chain_reads_several_sequences_as_one():
    a = CommandProduct(make, (["alice"], [1, 2, 3]))
    b = [make("bob", 9)]
    chained = chain_commands([a, [], b])
    assert isinstance(chained, CommandChain)
    assert len(chained) == 4 and chained[3] == make("bob", 9) and chained[0] == make("alice", 1)
    assert list(chained) == [*a, *b]
    assert chain_commands([[make("x", 1)], []]) == [make("x", 1)]  # lists stay lists
