"""markdown-it's flat list of tokens as a tree: each opening token with the tokens up to its closing one."""

from __future__ import annotations

from dataclasses import dataclass, field

from markdown_it.token import Token


@dataclass
class Tree:
    """A token, and for an opening token the trees between it and its closing token."""

    token: Token
    children: list[Tree] = field(default_factory=list)


def tree_of(tokens: list[Token]) -> list[Tree]:
    """The tokens of a parse as trees (closing tokens are left out: their opening token stands for both)."""
    root: list[Tree] = []
    stack: list[list[Tree]] = [root]
    for token in tokens:
        if token.nesting == -1:
            if len(stack) > 1:
                stack.pop()
            continue
        tree = Tree(token)
        stack[-1].append(tree)
        if token.nesting == 1:
            stack.append(tree.children)
    return root
