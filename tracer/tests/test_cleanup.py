"""What a group leaves is removed whatever its shape (sandbox.remove_tree, _remove_owned): a chain of
directories thousands deep, paths far past PATH_MAX, symbolic links out of the tree. On Python 3.11
os.walk and shutil.rmtree recurse: a 1,500-deep chain raised RecursionError in the cleanup, and every
later group of the container found /tmp full."""

import os

from tracegate_tracer.runner import sandbox


def _chain(root, depth, name="d", files=1):
    """A chain `depth` directories deep under `root`, built relative to each parent (no long path)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir(name, dir_fd=fd)
        child = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        for i in range(files):
            os.close(os.open(f"f{i}", os.O_CREAT | os.O_WRONLY, dir_fd=child))
        os.close(fd)
        fd = child
    os.close(fd)


def test_a_deep_chain_is_removed_without_recursion(tmp_path):
    top = tmp_path / "top"
    top.mkdir()
    _chain(str(top), 1_500)
    assert sandbox.remove_tree(str(top)) is True
    assert not top.exists()


def test_a_chain_past_path_max_is_removed(tmp_path):
    top = tmp_path / "top"
    top.mkdir()
    _chain(str(top), 3_000, name="n" * 200, files=0)  # ~600 KB of path
    assert sandbox.remove_tree(str(top)) is True
    assert not top.exists()


def test_links_out_of_the_tree_are_removed_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    top = tmp_path / "top"
    (top / "a" / "b").mkdir(parents=True)
    (top / "a" / "b" / "to-dir").symlink_to(outside)
    (top / "to-file").symlink_to(outside / "keep.txt")
    assert sandbox.remove_tree(str(top)) is True
    assert not top.exists() and (outside / "keep.txt").read_text() == "mine"
    assert sandbox.remove_tree(str(tmp_path / "absent")) is True


def test_what_a_uid_owns_is_removed_at_any_depth_and_nothing_else(tmp_path):
    root = tmp_path / "scrub"
    root.mkdir()
    _chain(str(root), 2_000)
    (root / "file").write_text("left behind")
    # Another uid's directory is searched, and kept: only what `uid` owns goes (root can show it).
    other = root / "shared"
    other.mkdir()
    (other / "mine").write_text("x")
    if os.getuid() == 0:
        os.chown(other, 47_999, 47_999)
    removed = sandbox._remove_owned(str(root), os.getuid())
    assert removed >= 2
    if os.getuid() == 0:
        assert os.listdir(root) == ["shared"] and os.listdir(other) == []
    else:
        assert os.listdir(root) == []
