"""Every file the compiler reads, read as a source is: a regular file, inside the project, of a bounded size.

Baselines, terminologies, waivers, the configuration and the site's own settings and templates come
from a checkout a pull request wrote (Git stores links) or from the command line (which can name a
device or a pipe). Each is refused in plain words, naming the file, with exit status 2: never read
through a link that leaves the project, never a device (``/dev/zero`` never ends), never a pipe
(it would wait forever: those cases run in a process of their own, stopped if they hang), never a
file larger than its kind may be. What was refused never reaches the output.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from .scratch import configure, nothing_written_outside, refused, run, run_guarded, scratch, source  # noqa: F401 (fixtures)
from .test_report_files import BOOK

SECRET = "GH_TOKEN=ghp_not_a_real_secret"
FRENCH = "# 1 Bouger\n\nMarcher, c'est bouger.\n"
LEFT_OUT = "it is a link to a place outside the project; the project's files are read only inside it"
NOT_REGULAR = "it is not a regular file (a device, a pipe or a socket)"


def _sparse(path: Path, megabytes: int) -> Path:
    """A file that says it holds ``megabytes`` MB (of nothing: it takes no room on the disk)."""
    with path.open("wb") as stream:
        stream.truncate(megabytes * 1024 * 1024)
    return path


def _baseline(entries: object, version: object = 2) -> str:
    return json.dumps({"version": version, "entries": entries})


# -- baselines ------------------------------------------------------------------------------------


def test_a_baseline_that_is_a_device_or_a_pipe_is_not_read(scratch: Path) -> None:  # noqa: F811
    source(scratch, "book.xml", BOOK)
    outcome = run_guarded(scratch, "lint", "--baseline", "/dev/zero")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: cannot read the baseline `/dev/zero`: {NOT_REGULAR}\n"
    os.mkfifo(scratch / "baseline.json")  # reading it would wait for a writer forever
    outcome = run_guarded(scratch, "lint", "--baseline", "baseline.json")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: cannot read the baseline `baseline.json`: {NOT_REGULAR}\n"
    configure(scratch, 'baseline = "baseline.json"\n')
    outcome = run_guarded(scratch, "lint")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: cannot read the baseline `{scratch / 'baseline.json'}`: {NOT_REGULAR}\n"


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("[" * 100_000, "`baseline.json` is not a rulebook lint baseline: its JSON nests too deeply"),
        (
            _baseline([{"source": "a", "rule": "RB101", "target": "t", "section": "s", "count": [0] * 200_000}]),
            "`baseline.json`, entry 1: `count` must be a whole number from 1 to 999,999,999, not a list",
        ),
        (
            _baseline([{"source": "a", "rule": "RB101", "target": "t", "section": "s", "count": "9" * 100_000}]),
            "`baseline.json`, entry 1: `count` must be a whole number from 1 to 999,999,999, not a long string",
        ),
        (  # Python's own words, and no place: "Exceeds the limit (4300 digits) for integer string conversion"
            '{"version": 2, "entries": [{"count": ' + "9" * 5001 + "}]}",
            "`baseline.json` is not a rulebook lint baseline: a whole number of 5,001 digits at $.entries[0].count; no "
            "number there has more than 40 digits",
        ),
        (  # it matched nothing, and was said to "no longer occur"
            _baseline([{"source": "a", "rule": "no-such-rule", "target": "t", "section": "s", "count": 1}]),
            "`baseline.json`, entry 1: `no-such-rule` is no rule of the lint (`rulebook explain` lists them;",
        ),
        (
            _baseline([{"source": "a", "rule": "RB101", "target": "t", "section": "s", "count": 10**9}]),
            "`baseline.json`, entry 1: `count` must be a whole number from 1 to 999,999,999, not 1000000000",
        ),
        (_baseline([], version=[0] * 200_000), "the baseline `baseline.json` has version a list; this rulebook reads"),
        (_baseline([], version={"a": "b" * 100_000}), "the baseline `baseline.json` has version an object; this"),
    ],
)
def test_a_huge_or_deep_baseline_is_a_short_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    content: str,
    said: str,
) -> None:
    source(scratch, "book.xml", BOOK)
    (scratch / "baseline.json").write_text(content, encoding="utf-8")
    outcome = run(capsys, "lint", "--baseline", "baseline.json")
    assert outcome.code == 2
    assert outcome.err.startswith(f"rulebook: error: {said}")
    assert len(outcome.err) < 200


def test_a_baseline_too_large_or_linked_out_or_a_folder_is_not_read(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    _sparse(scratch / "huge.json", 65)
    outcome = run(capsys, "lint", "--baseline", "huge.json")
    assert outcome.code == 2
    assert outcome.err == (
        "rulebook: error: cannot read the baseline `huge.json`: it is larger than 64 MB, the most a baseline may be\n"
    )
    outside = tmp_path_factory.mktemp("outside") / "baseline.json"
    outside.write_text(_baseline([]), encoding="utf-8")  # a good baseline: it is where it is that is wrong
    (scratch / "linked.json").symlink_to(outside)
    outcome = run(capsys, "lint", "--baseline", "linked.json")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: cannot read the baseline `linked.json`: {LEFT_OUT}\n"
    assert run(capsys, "lint", "--baseline", str(outside)).code == 1  # named outside the project: the user's own
    (scratch / "folder.json").mkdir()
    outcome = run(capsys, "lint", "--baseline", "folder.json")
    assert outcome.code == 2
    assert outcome.err == "rulebook: error: cannot read the baseline `folder.json`: it is a folder, not a file\n"


# -- terminology and waivers ----------------------------------------------------------------------


def _translated(folder: Path) -> None:
    source(folder, "book.xml", BOOK)
    (folder / "fr").mkdir()
    (folder / "fr" / "book.md").write_text(FRENCH, encoding="utf-8")


@pytest.mark.parametrize("name", ["terms.toml", "waivers.toml"])
def test_a_terminology_or_waivers_linked_out_of_the_project_is_not_read(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    _translated(scratch)
    outside = tmp_path_factory.mktemp("outside") / "environ.toml"
    outside.write_text(f'[march]\npreferred = "{SECRET}"\n', encoding="utf-8")
    (scratch / "fr" / name).symlink_to(outside)
    outcome = refused(capsys, scratch, "compare", "--language", "fr", "book.xml", "fr/book.md")
    assert outcome.err == f"rulebook: error: cannot read `fr/{name}`: {LEFT_OUT}\n"
    assert SECRET not in outcome.out + outcome.err
    outcome = run(capsys, "terms", "export", f"fr/{name}")
    assert outcome.code == 2 and outcome.err == f"rulebook: error: cannot read `fr/{name}`: {LEFT_OUT}\n"


@pytest.mark.parametrize("name", ["terms.toml", "waivers.toml"])
def test_a_terminology_or_waivers_that_is_a_pipe_is_refused_not_passed_over(
    scratch: Path,  # noqa: F811
    name: str,
) -> None:
    _translated(scratch)
    os.mkfifo(scratch / "fr" / name)
    outcome = run_guarded(scratch, "compare", "--language", "fr", "book.xml", "fr/book.md")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: cannot read `fr/{name}`: {NOT_REGULAR}\n"
    option = "--terms" if name == "terms.toml" else "--waivers"
    outcome = run_guarded(scratch, "compare", "--language", "fr", "book.xml", "fr/book.md", option, f"fr/{name}")
    assert outcome.code == 2 and outcome.err == f"rulebook: error: cannot read `fr/{name}`: {NOT_REGULAR}\n"


def test_a_build_refuses_a_waivers_pipe_beside_its_translation(scratch: Path) -> None:  # noqa: F811
    _translated(scratch)
    configure(scratch, '[translations.fr]\nsource = "fr/book.md"\n')
    os.mkfifo(scratch / "fr" / "waivers.toml")
    outcome = run_guarded(scratch, "build", "-q")
    assert outcome.code == 2
    assert f"rulebook: error: cannot read `{scratch / 'fr' / 'waivers.toml'}`: {NOT_REGULAR}\n" in outcome.err
    assert not (scratch / "site").exists()


# -- the configuration and the site's settings ----------------------------------------------------


def test_a_configuration_that_is_a_pipe_a_link_out_or_huge_is_not_read(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    config = scratch / "rulebook.toml"
    os.mkfifo(config)
    outcome = run_guarded(scratch, "lint")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: cannot read the configuration `{config}`: {NOT_REGULAR}\n"
    config.unlink()
    outside = tmp_path_factory.mktemp("outside") / "rulebook.toml"
    outside.write_text(f'title = "{SECRET}"\nsources = 5\n', encoding="utf-8")
    config.symlink_to(outside)
    outcome = run_guarded(scratch, "lint")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: cannot read the configuration `{config}`: {LEFT_OUT}\n"
    config.unlink()
    _sparse(config, 65)
    outcome = run_guarded(scratch, "lint")
    assert outcome.code == 2
    assert outcome.err == (
        f"rulebook: error: cannot read the configuration `{config}`: "
        "it is larger than 64 MB, the most a configuration may be\n"
    )


@pytest.mark.parametrize("name", ["site_templates/index.md.j2", "site_templates/strings.toml", "mkdocs.yml"])
def test_the_sites_own_files_linked_out_of_the_project_are_not_read(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
) -> None:
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    outside = tmp_path_factory.mktemp("outside") / "environ"
    outside.write_text(f"# {SECRET}\n", encoding="utf-8")
    (scratch / name).parent.mkdir(exist_ok=True)
    (scratch / name).symlink_to(outside)
    outcome = run_guarded(scratch, "build", "-q")
    assert outcome.code == 2
    assert f"cannot read `{scratch / name}`: {LEFT_OUT}" in outcome.err
    assert SECRET not in outcome.err and not (scratch / "site").exists()


def test_an_assets_folder_linked_out_of_the_project_is_not_published(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """A committed ``site_templates/assets -> ~/.ssh``: each file in it is reached through the link, and refused."""
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    outside = tmp_path_factory.mktemp("outside")
    (outside / "id_ed25519").write_text(SECRET, encoding="utf-8")
    (scratch / "site_templates").mkdir()
    (scratch / "site_templates" / "assets").symlink_to(outside, target_is_directory=True)
    outcome = run_guarded(scratch, "build", "-q")
    assert outcome.code == 2
    assert f"cannot read `{scratch / 'site_templates' / 'assets' / 'id_ed25519'}`: {LEFT_OUT}" in outcome.err
    assert SECRET not in outcome.err and not (scratch / "site").exists()


def test_a_link_among_the_assets_is_followed_inside_the_project_and_refused_out_of_it(
    scratch: Path,  # noqa: F811
) -> None:
    """A committed ``site_templates/assets/rulebook.css -> /dev/zero`` was left out in silence, the shipped stylesheet
    published for the project's (exit 0; the twentieth probe): a link among the assets is read as every file of
    the project is, its target published when it is in the project, refused when it leads out; a link to a folder
    is refused, its files not left out in silence."""
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    assets = scratch / "site_templates" / "assets"
    assets.mkdir(parents=True)
    (scratch / "look.css").write_text("body { color: teal }\n", encoding="utf-8")
    (assets / "rulebook.css").symlink_to("../../look.css")
    assert run_guarded(scratch, "build", "-q", "--no-pdf").code == 0
    assert (scratch / "site" / "assets" / "rulebook.css").read_text(encoding="utf-8") == "body { color: teal }\n"
    (assets / "rulebook.css").unlink()
    (assets / "rulebook.css").symlink_to("/dev/zero")
    outcome = run_guarded(scratch, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert f"cannot read `{assets / 'rulebook.css'}`: {LEFT_OUT}" in outcome.err
    (assets / "rulebook.css").unlink()
    (assets / "more").symlink_to("../../rules_elsewhere", target_is_directory=True)
    (scratch / "rules_elsewhere").mkdir()
    outcome = run_guarded(scratch, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert f"cannot read `{assets / 'more'}`: it is a link to a folder" in outcome.err


def test_the_sites_own_file_that_is_a_pipe_is_not_read(scratch: Path) -> None:  # noqa: F811
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    (scratch / "site_templates").mkdir()
    os.mkfifo(scratch / "site_templates" / "strings.toml")
    outcome = run_guarded(scratch, "build", "-q")
    assert outcome.code == 2
    assert f"cannot read `{scratch / 'site_templates' / 'strings.toml'}`: {NOT_REGULAR}" in outcome.err
    (scratch / "site_templates" / "strings.toml").unlink()
    (scratch / "site_templates" / "assets").mkdir()
    os.mkfifo(scratch / "site_templates" / "assets" / "extra.css")  # refused, not passed over
    outcome = run_guarded(scratch, "build", "-q")
    assert outcome.code == 2
    assert f"cannot read `{scratch / 'site_templates' / 'assets' / 'extra.css'}`: {NOT_REGULAR}" in outcome.err


@pytest.mark.parametrize("shape", ["link out", "file", "font linked out", "font pipe"])
def test_a_fonts_folder_that_is_not_the_projects_folder_of_fonts_is_refused(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    shape: str,
) -> None:
    """``site_templates/fonts`` was passed over in silence when committed as a link (or as a file): the PDF came
    out in another font with exit 0. The folder is read as every input is, and each font in it too."""
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.ttf").write_text(SECRET, encoding="utf-8")
    fonts = scratch / "site_templates" / "fonts"
    fonts.parent.mkdir()
    if shape == "link out":
        fonts.symlink_to(outside, target_is_directory=True)
    elif shape == "file":
        fonts.write_text("not a folder", encoding="utf-8")
    else:
        fonts.mkdir()
        if shape == "font linked out":
            (fonts / "a.ttf").symlink_to(outside / "secret.ttf")
        else:
            os.mkfifo(fonts / "a.ttf")
    with nothing_written_outside(scratch, "site"):
        outcome = run_guarded(scratch, "build", "-q", "--pdf-only")
    assert outcome.code == 2
    said = {
        "link out": f"cannot read `{fonts}`: {LEFT_OUT}",
        "file": f"cannot read `{fonts}`: it is not a folder; fonts are read from a folder of that name",
        "font linked out": f"cannot read `{fonts / 'a.ttf'}`: {LEFT_OUT}",
        "font pipe": f"cannot read `{fonts / 'a.ttf'}`: {NOT_REGULAR}",
    }[shape]
    assert outcome.err == f"rulebook: error: {said}\n"
    assert SECRET not in outcome.err and not (scratch / "site").exists()


@pytest.mark.parametrize(
    ("data", "count"),
    [
        (b"ttcf\x00\x01\x00\x00\xff\xff\xff\xff", "4,294,967,295"),  # 12 bytes: Typst past a minute
        (b"ttcf\x00\x01\x00\x00\x00\x00\x01\x01" + b"\x00\x00\x00\x10" * 257, "257"),  # each entry one font
    ],
    ids=["counted past its bytes", "too many"],
)
@pytest.mark.parametrize("command", [("lint",), ("build", "-q", "--pdf-only")])
def test_a_font_collection_counting_more_fonts_than_it_may_is_refused(
    scratch: Path,  # noqa: F811
    data: bytes,
    count: str,
    command: tuple[str, ...],
) -> None:
    """Typst tries every font a collection's header counts: 12 bytes counting 4,294,967,295 held the build past a
    minute (and the lint's check of `[pdf] font`), a million entries naming one font took 965 MB (the forty-seventh
    probe). Refused by its count, before Typst reads it."""
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    fonts = scratch / "site_templates" / "fonts"
    fonts.mkdir(parents=True)
    (fonts / "many.ttc").write_bytes(data)
    with nothing_written_outside(scratch, "site"):
        outcome = run_guarded(scratch, *command)
    assert outcome.code == 2, outcome
    assert f"cannot read `{fonts / 'many.ttc'}`: it is a font collection whose header counts {count} fonts" in (
        outcome.err
    ), outcome.err


def _font(groups: list[tuple[int, int]], maps: int = 1) -> bytes:
    """A font of one table, a character map (format 12) of ``groups``, which ``maps`` encoding records all name."""
    import struct

    table = struct.pack(">HHIII", 12, 0, 16 + 12 * len(groups), 0, len(groups))
    table += b"".join(struct.pack(">III", first, end, 0) for first, end in groups)
    cmap = struct.pack(">HH", 0, maps) + struct.pack(">HHI", 3, 10, 4 + 8 * maps) * maps + table
    return struct.pack(">IHHHH", 0x00010000, 1, 0, 0, 0) + struct.pack(">4sIII", b"cmap", 0, 28, len(cmap)) + cmap


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (_font([(0, 0xFFFFFFFF)]), "a character map claims the code point 0xffffffff, past Unicode's last"),
        (_font([(0, 0x10FFFF)], maps=100), "its character maps claim 111,411,200 characters, more than a font needs"),
    ],
    ids=["past unicode", "unicode a hundred times"],
)
def test_a_font_claiming_more_characters_than_a_font_may_is_refused(
    scratch: Path,  # noqa: F811
    data: bytes,
    said: str,
) -> None:
    """Typst tables every character a font's maps claim: 11 KB claiming 0 to 0xFFFFFFFF took it to its memory limit
    (4.1 GB, "raise memory_limit", no file named), the whole of Unicode listed 100 times 678 MB, and again for each
    SVG picture drawn (40 of them: the build past a minute; the forty-eighth probe). Refused by what it claims."""
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    fonts = scratch / "site_templates" / "fonts"
    fonts.mkdir(parents=True)
    (fonts / "wide.ttf").write_bytes(data)
    outcome = run_guarded(scratch, "lint")
    assert outcome.code == 2 and f"cannot read `{fonts / 'wide.ttf'}`: {said}" in outcome.err, outcome.err


def test_the_fonts_of_this_machine_claim_what_a_font_may() -> None:
    """No false alarm: every font file on this machine (Debian's, Chromium's, the test packages') passes."""
    from rulebook.font_claims import check_claims

    found = [path for pattern in ("*.ttf", "*.otf", "*.ttc") for path in Path("/usr/share/fonts").rglob(pattern)]
    if not found:
        pytest.skip("no font files on this machine")
    for path in found:
        check_claims(path.read_bytes())
    check_claims(_font([(0x20, 0x7E), (0x4E00, 0x9FFF)], maps=2))


# -- files named on the command line --------------------------------------------------------------


def test_a_pipe_named_on_the_command_line_is_not_read(scratch: Path) -> None:  # noqa: F811
    source(scratch, "book.xml", BOOK)
    os.mkfifo(scratch / "notes.md")
    outcome = run_guarded(scratch, "lint", "--color", "never", "notes.md")
    assert outcome.code == 2
    assert f"error[RB003]: cannot read `notes.md`: {NOT_REGULAR}" in outcome.out


def test_a_file_linked_out_of_the_project_shows_nothing_of_its_target(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A file that is not a rulebook is reported with its first line: never the first line of a link's target."""
    source(scratch, "book.xml", BOOK)
    outside = tmp_path_factory.mktemp("outside") / "environ"
    outside.write_text(f"{SECRET}\n", encoding="utf-8")
    (scratch / "settings.conf").symlink_to(outside)
    outcome = run(capsys, "lint", "--color", "never", "settings.conf")
    assert outcome.code == 2
    assert "error[RB004]: `settings.conf` is not a rulebook source" in outcome.out
    assert SECRET not in outcome.out + outcome.err


def test_a_configuration_named_on_the_command_line_that_is_no_file_is_refused(scratch: Path) -> None:  # noqa: F811
    source(scratch, "book.xml", BOOK)
    os.mkfifo(scratch / "pipe.toml")
    (scratch / "folder.toml").mkdir()
    outcome = run_guarded(scratch, "lint", "--config", "pipe.toml")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: cannot read the configuration `{scratch / 'pipe.toml'}`: {NOT_REGULAR}\n"
    outcome = run_guarded(scratch, "lint", "--config", "folder.toml")
    assert outcome.code == 2
    assert outcome.err == (
        f"rulebook: error: cannot read the configuration `{scratch / 'folder.toml'}`: it is a folder, not a file\n"
    )


@pytest.mark.parametrize("format", ["", "xml", "plain-markdown"])
def test_a_file_of_the_kernel_is_never_read_as_a_source(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    format: str,
) -> None:
    """`sources = ["/proc/self/environ"]` in a committed configuration printed the process's environment, a CI's
    tokens with it, as the snippet of a finding (and as plain Markdown it was read, "All checks passed"): the
    configuration names only files of the project now, and a file of /proc or /sys, which looks regular, is refused
    by what it is however it is named (on the command line too)."""
    monkeypatch.setenv("RULEBOOK_PROBE_TOKEN", SECRET)
    said = "" if not format else f'format = "{format}"\n'
    (scratch / "rulebook.toml").write_text(f'title = "T"\nsources = ["/proc/self/environ"]\n{said}', encoding="utf-8")
    for argv in (("lint", "--color", "never"), ("build", "-q", "--data-only")):
        outcome = run(capsys, *argv)
        assert outcome.code == 2, outcome
        assert SECRET not in outcome.out + outcome.err
        assert "names `/proc/self/environ`, which is outside the project" in outcome.err
    (scratch / "book.md").write_text("# T\n", encoding="utf-8")
    (scratch / "rulebook.toml").write_text(f'title = "T"\nsources = ["book.md"]\n{said}', encoding="utf-8")
    named = scratch.parent / f"{scratch.name}-environ.md"  # the user's own link, outside the project
    named.symlink_to("/proc/self/environ")
    outcome = run(capsys, "lint", "--color", "never", str(named))
    assert SECRET not in outcome.out + outcome.err
    assert "it is a file the kernel writes (under /proc or /sys)" in outcome.out
    assert not (scratch / "site").exists()


MOUNTINFO = """\
22 1 254:0 / / rw,relatime - ext4 /dev/vda rw
23 22 0:21 / /proc rw,nosuid - proc proc rw
24 22 0:22 / /sys ro,nosuid - sysfs sysfs ro
25 24 0:32 / /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory
26 24 0:40 / /sys/kernel/debug rw,relatime - debugfs debugfs rw
27 22 0:41 / /host/proc rw,relatime - proc proc rw
28 22 0:23 / /dev/shm rw,nosuid - tmpfs shm rw
29 22 0:42 / /system rw,relatime - tmpfs tmpfs rw
30 23 0:43 / /proc/sys/fs/binfmt_misc rw,relatime shared:9 - binfmt_misc binfmt_misc rw
"""


def test_every_file_system_below_proc_or_sys_and_procfs_anywhere_is_the_kernels() -> None:
    """A cgroup's files (`/sys/fs/cgroup/memory/memory.stat`), debugfs and binfmt_misc are file systems of their own
    mounted below /sys and /proc: only /proc's and /sys's own devices were refused, so a source naming a cgroup's
    file was read and published. A procfs mounted elsewhere (a host's, `/host/proc`) is the kernel's too."""
    from rulebook.inputs import kernel_mounts

    assert kernel_mounts(MOUNTINFO) == {os.makedev(0, n) for n in (21, 22, 32, 40, 41, 43)}


def _file_below_sys_of_another_file_system() -> Path | None:
    """A regular file of a file system mounted below /sys (a cgroup's), if this machine has one."""
    sysfs = os.stat("/sys").st_dev
    for folder, _, names in os.walk("/sys/fs"):
        for name in names:
            path = Path(folder, name)
            status = path.lstat()
            if path.is_file() and not path.is_symlink() and status.st_dev != sysfs and os.access(path, os.R_OK):
                return path
    return None


def test_a_file_of_a_file_system_below_sys_is_never_read_as_a_source(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    found = _file_below_sys_of_another_file_system()
    if found is None:
        pytest.skip("no file system is mounted below /sys here")
    (scratch / "book.md").write_text("# T\n", encoding="utf-8")
    (scratch / "rulebook.toml").write_text(
        'title = "T"\nsources = ["book.md"]\nformat = "plain-markdown"\n', encoding="utf-8"
    )
    named = scratch.parent / f"{scratch.name}-kernel.md"  # the user's own link, outside the project
    named.symlink_to(found)
    outcome = run(capsys, "lint", "--color", "never", str(named))
    assert outcome.code == 2, outcome
    assert "it is a file the kernel writes (under /proc or /sys)" in outcome.out
    assert run(capsys, "build", "-q", "--data-only", str(named)).code == 2
    assert not (scratch / "site").exists()
