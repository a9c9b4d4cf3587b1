"""What the digest that retires caches and site files stands for."""

from __future__ import annotations

from pathlib import Path

from spectrack.codedigest import SHAPING_LIBRARIES, code_digest, digest_of, installed_versions


def a_package(folder: Path) -> Path:
    (folder / "templates").mkdir(parents=True)
    (folder / "engine.py").write_text("RULE = 1\n", encoding="utf-8")
    (folder / "templates" / "page.html").write_text("<p>{{ x }}</p>\n", encoding="utf-8")
    (folder / "notes.txt").write_text("not part of the code\n", encoding="utf-8")
    return folder


def test_a_library_upgrade_changes_the_digest(tmp_path: Path) -> None:
    package = a_package(tmp_path)
    before = digest_of(package, {"markdown-it-py": "4.1.0", "python": "3.11"})
    assert digest_of(package, {"markdown-it-py": "4.2.0", "python": "3.11"}) != before
    assert digest_of(package, {"markdown-it-py": "4.1.0", "python": "3.12"}) != before
    assert digest_of(package, {"python": "3.11", "markdown-it-py": "4.1.0"}) == before


def test_code_and_templates_count_and_other_files_do_not(tmp_path: Path) -> None:
    package = a_package(tmp_path)
    before = digest_of(package, {})
    (package / "notes.txt").write_text("edited\n", encoding="utf-8")
    assert digest_of(package, {}) == before
    (package / "templates" / "page.html").write_text("<p>{{ y }}</p>\n", encoding="utf-8")
    assert digest_of(package, {}) != before


def test_the_installed_digest_names_python_and_every_shaping_library() -> None:
    versions = installed_versions()
    assert set(versions) == {"python", *SHAPING_LIBRARIES}
    assert "absent" not in versions.values()
    assert code_digest() == digest_of(Path(__file__).parents[1] / "spectrack", versions)
