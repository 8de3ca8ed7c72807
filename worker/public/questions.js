// Questions on the demo page (docs/questions.md): when the model calls the ask tool, the run pauses and
// each call shows as a card — its questions with their options (radio buttons, or checkboxes for a
// multiple choice), a field for the user's own words, Send and Skip. Send answers every question; Skip
// leaves them unanswered (the model is told so). app.js posts the reply with the approval decisions
// (`POST /api/sessions/:id/approvals`), and the run goes on as a new stream.

/**
 * @typedef {{ label: string, description?: string }} QuestionOption
 * @typedef {{ question: string, header: string, options: QuestionOption[], multiSelect: boolean }} Question
 * @typedef {{ toolCallId: string, toolName: string, questions: Question[] }} PendingQuestion
 * @typedef {{ toolCallId: string, answers: { selected?: string[], text?: string }[] }
 *   | { toolCallId: string, unanswered: true, reason?: string }} QuestionReply
 */

/** An element with a class and text (never HTML). */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * One question: a fieldset with its options and a field for the user's own words; `read()` gives
 * its answer, or undefined when nothing was picked or written.
 * @param {Question} question
 * @param {string} name the inputs' group name
 */
function questionField(question, name) {
  const set = el("fieldset", "ask");
  const legend = el("legend");
  legend.append(el("span", "header", question.header), ` ${question.question}`);
  set.append(legend);
  const inputs = question.options.map((option) => {
    const input = el("input");
    input.type = question.multiSelect ? "checkbox" : "radio";
    input.name = name;
    input.value = option.label;
    const label = el("label", "option");
    label.append(input, ` ${option.label}`);
    if (option.description) label.append(el("span", "muted", ` — ${option.description}`));
    set.append(label);
    return input;
  });
  const own = el("input", "own");
  own.placeholder = question.multiSelect ? "and/or in your own words" : "or in your own words";
  own.maxLength = 2000;
  set.append(own);
  const read = () => {
    const selected = inputs.filter((input) => input.checked).map((input) => input.value);
    const text = own.value.trim();
    if (selected.length === 0 && text === "") return undefined;
    const answer = {};
    if (selected.length > 0) answer.selected = selected;
    if (text !== "") answer.text = text;
    return answer;
  };
  return { set, read };
}

/**
 * The card of one call of the ask tool.
 * @param {PendingQuestion} asked
 * @param {(reply: QuestionReply) => void} send
 */
function questionCard(asked, send) {
  const card = el("div", "question");
  card.dataset.id = asked.toolCallId;
  const count = asked.questions.length;
  card.append(
    el("div", "title", `The assistant asks you ${count === 1 ? "a question" : `${count} questions`}`),
  );
  const fields = asked.questions.map((question, index) =>
    questionField(question, `${asked.toolCallId}-${index}`),
  );
  for (const field of fields) card.append(field.set);
  const problem = el("div", "problem");
  const answer = el("button", "answer", "Send answers");
  const skip = el("button", "skip", "Skip");
  answer.type = skip.type = "button";
  const buttons = el("div", "buttons");
  buttons.append(answer, skip);
  card.append(buttons, problem);
  answer.addEventListener("click", () => {
    const answers = fields.map((field) => field.read());
    if (answers.some((given) => given === undefined)) {
      problem.textContent = "Answer every question: pick an option or write your own";
      return;
    }
    send({ toolCallId: asked.toolCallId, answers });
  });
  skip.addEventListener("click", () =>
    send({ toolCallId: asked.toolCallId, unanswered: true, reason: "the user skipped the questions" }));
  return card;
}

/**
 * The cards of the calls that wait for answers, in one section (class `questions`).
 * @param {PendingQuestion[]} pending
 * @param {(reply: QuestionReply) => void} send
 */
export function questionSection(pending, send) {
  const section = el("div", "questions");
  for (const asked of pending) section.append(questionCard(asked, send));
  return section;
}
