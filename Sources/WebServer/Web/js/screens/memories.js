// /memories (brief 003): "Create Memory" → the picker (date range, people, years, places) → the
// collage with Shuffle, Back, Save and Share. The view follows the address (?pick, ?year=2019
// &seed=7, ?person=Ana&range=last-year…): moving between views is history.pushState, another
// seed replaces the address, so the back button and a reload show the same view.
import { h, useStyles, setTitle } from "../dom.js";
import { liveRegion } from "./kit.js";
import { memoriesIcon } from "../memories/icons.js";
import { showPicker } from "../memories/picker.js";
import { showCollage } from "../memories/collage-view.js";
import { viewFromQuery, queryFor } from "../memories/source.js";

export async function show(main, params) {
  useStyles("people", "memories");
  const announce = liveRegion(main);
  const stage = h("div", { class: "mem-screen" });
  main.prepend(stage);
  let state = viewFromQuery(params.query);
  let shown = 0;

  function go(next, { replace = false } = {}) {
    const from = state;
    state = next;
    const url = `/memories${queryFor(next)}`;
    if (replace) history.replaceState(null, "", url); else history.pushState(null, "", url);
    return render(from);
  }

  async function render(from = null) {
    const ticket = ++shown;
    stage.setAttribute("aria-busy", "true");
    try {
      if (state.view === "start") {
        setTitle("Memories");
        startView();
      } else if (state.view === "pick") {
        setTitle("Create Memory · Memories");
        await showPicker(stage, {
          range: state.range,
          focus: from?.source,
          onRange: (range) => { state = { ...state, range }; history.replaceState(null, "", `/memories${queryFor(state)}`); },
          onPick: (source) => go({ view: "collage", range: state.range, source, seed: "1" }),
        });
      } else {
        setTitle(`${state.source.label} · Memories`);
        await showCollage(stage, {
          source: state.source, range: state.range, seed: state.seed ?? "1", announce,
          onChooseAnother: () => go({ view: "pick", range: state.range }),
          onSeed: (seed) => {
            if (ticket !== shown) return;
            state = { ...state, seed };
            history.replaceState(null, "", `/memories${queryFor(state)}`);
          },
        });
      }
    } finally {
      if (ticket === shown) stage.setAttribute("aria-busy", "false");
    }
  }

  function startView() {
    const create = h("button", { type: "button", class: "button primary mem-create", on: { click: () => go({ view: "pick", range: state.range }) } },
      memoriesIcon("sparkle"), "Create Memory");
    stage.replaceChildren(h("section", { class: "mem-start card", "aria-labelledby": "memories-title" },
      h("h1", { id: "memories-title", text: "Memories" }),
      h("p", { class: "mem-lede", text: "Six of the best photos of a person, a year or a place, laid out on one 1200 × 1500 page with their faces kept whole. Shuffle until you like it; it is saved only when you say so." }),
      create));
  }

  addEventListener("popstate", () => {
    const from = state;
    state = viewFromQuery(new URLSearchParams(location.search));
    render(from);
  });
  await render();
}
