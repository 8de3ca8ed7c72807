// Forks on the demo page (docs/forks.md). Every prompt the log shows gets an "edit" button: the edited
// prompt is sent with `parentId` set to the message before it, so the conversation forks there and
// what came after is kept as a branch. Once the session has two branches a switcher shows them; choosing
// one makes it the active branch (the Worker saves the switch) and the page draws it.
//
// app.js hands over what this needs (`setupForks`) and calls `refresh()` when it drew a session anew or
// a run ended.

/**
 * @typedef {object} ForkHost what app.js lends this module
 * @property {(path: string, init?: RequestInit) => Promise<Response>} api the page's API call (token, errors)
 * @property {() => { sessionId: string } | null} current the session shown, if any
 * @property {() => boolean} busy whether a run is followed or calls wait for approval (no edit, no switch)
 * @property {(text: string, parentId: string | null) => Promise<void>} send draws the prompt and runs it forked
 * @property {() => Promise<void>} reload draws the stored session again
 * @property {(text: string) => void} status shows a line of status
 */

/**
 * Adds the edit buttons and the branch switcher to the page.
 * @param {ForkHost} host
 * @returns {{ refresh: () => Promise<void> }}
 */
export function setupForks(host) {
  const log = /** @type {HTMLElement} */ (document.getElementById("log"));
  const select = document.createElement("select");
  select.id = "branches";
  select.hidden = true;
  select.setAttribute("aria-label", "Branch of the conversation");
  document.querySelector("nav")?.insertBefore(select, document.getElementById("status"));

  // Every user turn gets its button, whoever drew it (a saved session's render, a live run).
  const decorate = () => {
    for (const box of log.querySelectorAll(".turn.user:not([data-editable])")) {
      const turn = /** @type {HTMLElement} */ (box);
      turn.dataset.editable = "";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "edit";
      button.textContent = "edit";
      button.title =
        "Edit this prompt and continue from here (the conversation after it is kept as a branch)";
      button.addEventListener("click", () => void edit(turn));
      turn.querySelector(".who")?.append(button);
    }
  };
  new MutationObserver(decorate).observe(log, { childList: true });

  /**
   * The id of the message before the `index`-th prompt of the stored conversation (`null`: it is the
   * first message), read from the session's export: what the edited prompt forks after.
   * @param {string} sessionId
   * @param {number} index
   */
  async function parentOf(sessionId, index) {
    const state = await (await host.api(`/api/sessions/${sessionId}/export`)).json();
    /** @type {{ id: string, role: string }[]} */
    const messages = state.messages;
    const prompts = messages.flatMap((message, at) => (message.role === "user" ? [at] : []));
    const at = prompts[index];
    if (at === undefined) throw new Error("that prompt is not saved yet");
    return at === 0 ? null : (messages[at - 1]?.id ?? null);
  }

  /** @param {HTMLElement} box a user turn */
  function edit(box) {
    const current = host.current();
    if (!current || host.busy() || box.querySelector("textarea")) return;
    const shown = /** @type {HTMLElement | null} */ (box.querySelector(".text"));
    const area = document.createElement("textarea");
    area.className = "edit-prompt";
    area.value = shown?.textContent ?? "";
    area.rows = 2;
    const send = document.createElement("button");
    send.type = "button";
    send.className = "edit-send";
    send.textContent = "Send edited prompt";
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    const form = document.createElement("div");
    form.className = "edit-form";
    form.append(area, send, cancel);
    if (shown) shown.hidden = true;
    box.append(form);
    area.focus();
    cancel.addEventListener("click", () => {
      form.remove();
      if (shown) shown.hidden = false;
    });
    send.addEventListener("click", async () => {
      const text = area.value.trim();
      if (!text || host.busy()) return;
      const index = [...log.querySelectorAll(".turn.user")].indexOf(box);
      let parentId;
      try {
        parentId = await parentOf(current.sessionId, index);
      } catch (error) {
        host.status(`could not edit: ${error instanceof Error ? error.message : error}`);
        return;
      }
      // The fork continues from before the edited prompt: what the log showed from it on is a branch now.
      while (box.nextSibling) box.nextSibling.remove();
      box.remove();
      await host.send(text, parentId);
      await refresh();
    });
  }

  let asked = 0;

  /** Asks the Worker for the session's branches and draws the switcher (hidden with fewer than two). */
  async function refresh() {
    const current = host.current();
    const mine = ++asked;
    if (!current) {
      select.hidden = true;
      return;
    }
    try {
      const response = await host.api(`/api/sessions/${current.sessionId}/branches`);
      /** @type {{ branches: { leafId: string | null, title: string, messageCount: number, active: boolean }[] }} */
      const { branches } = await response.json();
      if (mine !== asked) return;
      select.replaceChildren(
        ...branches.map((branch, index) => {
          const label = `Branch ${index + 1}: ${branch.title || "(empty)"} · ${branch.messageCount} messages`;
          const option = new Option(label, branch.leafId ?? "", false, branch.active);
          return option;
        }),
      );
      select.hidden = branches.length < 2;
    } catch {
      if (mine === asked) select.hidden = true;
    }
  }

  select.addEventListener("change", async () => {
    const current = host.current();
    if (current && !host.busy()) {
      try {
        await host.api(`/api/sessions/${current.sessionId}/branches`, {
          method: "POST",
          body: JSON.stringify({ leafId: select.value }),
        });
        await host.reload();
        host.status(`switched to ${select.selectedOptions[0]?.textContent ?? "another branch"}`);
      } catch (error) {
        host.status(`could not switch branches: ${error instanceof Error ? error.message : error}`);
      }
    }
    await refresh();
  });

  return { refresh };
}
