// Filters for the change site. They only narrow what the page already holds: without this
// script every list and every line shows in full, and the filter controls stay hidden.
"use strict";

(function () {
  const HIDE_FORMATTING_KEY = "spectrack.hideFormatting";
  // The hide toggle is for edits that changed no word: besides formatting-only ones, an edit
  // that changed only bytes (line ends, say) is recorded as "unchanged".
  const WORDLESS_VERDICTS = new Set(["formatting", "unchanged"]);

  function plural(count, noun) {
    return count === 1 ? `${count} ${noun}` : `${count} ${noun}s`;
  }

  function storedHideFormatting() {
    try {
      return window.localStorage.getItem(HIDE_FORMATTING_KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  function storeHideFormatting(hide) {
    try {
      window.localStorage.setItem(HIDE_FORMATTING_KEY, hide ? "1" : "0");
    } catch (error) {
      // Storage can be off (private windows, file:// in some browsers): the toggle still works.
    }
  }

  function setUpChangeFilters() {
    const panel = document.getElementById("change-filters");
    if (!panel) {
      return;
    }
    const verdict = document.getElementById("verdict-filter");
    const text = document.getElementById("text-filter");
    const hideFormatting = document.getElementById("hide-formatting");
    const status = document.getElementById("filter-status");
    const empty = document.getElementById("no-change-matches");
    const rows = Array.from(document.querySelectorAll("#change-list > li"));
    const rowTexts = rows.map((row) => row.textContent.toLowerCase());

    function apply() {
      const wanted = verdict.value;
      const needle = text.value.trim().toLowerCase();
      let shown = 0;
      rows.forEach((row, index) => {
        const rowVerdict = row.dataset.verdict;
        const visible =
          (wanted === "" || rowVerdict === wanted) &&
          !(hideFormatting.checked && WORDLESS_VERDICTS.has(rowVerdict)) &&
          (needle === "" || rowTexts[index].includes(needle));
        row.hidden = !visible;
        if (visible) {
          shown += 1;
        }
      });
      empty.hidden = shown !== 0;
      status.textContent =
        shown === rows.length
          ? `Showing all ${plural(rows.length, "change")}.`
          : `Showing ${shown} of ${plural(rows.length, "change")}.`;
    }

    hideFormatting.checked = storedHideFormatting();
    verdict.addEventListener("change", apply);
    text.addEventListener("input", apply);
    hideFormatting.addEventListener("change", () => {
      storeHideFormatting(hideFormatting.checked);
      apply();
    });
    panel.hidden = false;
    apply();
  }

  function setUpHunkFilter() {
    const panel = document.getElementById("hunk-filters");
    if (!panel) {
      return;
    }
    const input = document.getElementById("hunk-filter");
    const status = document.getElementById("hunk-status");
    const hunks = Array.from(document.querySelectorAll("section.hunk")).map((section, index) => ({
      number: index + 1,
      details: section.querySelector("details"),
      openedByFilter: false,
      message: section.querySelector(".no-match"),
      rows: Array.from(section.querySelectorAll("tbody tr")).map((row) => ({
        row,
        text: row.querySelector(".text").textContent.toLowerCase(),
      })),
    }));

    function apply() {
      const typed = input.value;
      const needle = typed.toLowerCase();
      let matchingLines = 0;
      let matchingHunks = 0;
      hunks.forEach((hunk) => {
        let shown = 0;
        hunk.rows.forEach(({ row, text }) => {
          const visible = needle === "" || text.includes(needle);
          row.hidden = !visible;
          if (visible) {
            shown += 1;
          }
        });
        if (needle !== "" && shown === 0) {
          hunk.message.textContent = `No line of hunk ${hunk.number} matches “${typed}”.`;
          hunk.message.hidden = false;
        } else {
          hunk.message.textContent = "";
          hunk.message.hidden = true;
        }
        if (needle !== "" && shown > 0) {
          if (!hunk.details.open) {
            hunk.details.open = true;
            hunk.openedByFilter = true;
          }
          matchingHunks += 1;
        }
        // Only the hunks the filter unfolded fold again: one the reader unfolded stays open.
        if (needle === "" && hunk.openedByFilter) {
          hunk.details.open = false;
          hunk.openedByFilter = false;
        }
        matchingLines += shown;
      });
      status.textContent =
        needle === ""
          ? ""
          : `${plural(matchingLines, "line")} in ${plural(matchingHunks, "hunk")} match “${typed}”.`;
    }

    input.addEventListener("input", apply);
    panel.hidden = false;
  }

  setUpChangeFilters();
  setUpHunkFilter();
})();
