"""The client's scene stack (Tuxemon-style states, ARCHITECTURE §6): the top scene gets
the input, overlays (dialogs, results) are drawn over the scenes under them.

A scene is told when it comes on top (``enter``: it builds its widgets), when it is
covered or popped (``leave``: they go) and when it is gone for good (``dispose``).
"""
from __future__ import annotations

from client.ui.scene import Scene


class SceneStack:
    """The scenes, bottom first (:attr:`scenes`, a list other parts may read)."""

    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Scene:
        """The scene on top (IndexError on an empty stack)."""
        return self.scenes[-1]

    def push(self, scene: Scene) -> Scene:
        """``scene`` on top, over the one that was (which leaves); returns it."""
        if self.scenes:
            self.top.leave()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def _end_top(self) -> Scene:
        """Take the top scene off the stack for good (its widgets go)."""
        scene = self.scenes.pop()
        scene.leave()
        scene.dispose()
        return scene

    def pop(self) -> Scene | None:
        """Remove the top scene (the one under it enters again); None on an empty stack."""
        if not self.scenes:
            return None
        scene = self._end_top()
        if self.scenes:
            self.top.enter()
        return scene

    def replace(self, scene: Scene) -> Scene:
        """``scene`` instead of the top one; returns it."""
        if self.scenes:
            self._end_top()
        self.scenes.append(scene)
        scene.enter()
        return scene

    def reset(self, scene: Scene) -> Scene:
        """Clear the stack down to nothing and show ``scene``."""
        while self.scenes:
            self._end_top()
        return self.push(scene)

    def visible(self) -> list[Scene]:
        """The scenes drawn now: the top one and those under overlays (bottom first);
        IndexError on an empty stack."""
        visible = [self.top]
        i = len(self.scenes) - 1
        while i > 0 and self.scenes[i].overlay:
            i -= 1
            visible.insert(0, self.scenes[i])
        return visible
