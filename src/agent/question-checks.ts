/**
 * The rules of questions, checked both ways: the model's questions (the ask tool's input: 1–4
 * questions, 2–4 options each, nothing else) and the person's answers (one per question, options that
 * exist, one pick unless `multiSelect`, something picked or written). Each problem is one sentence
 * naming where it is, so the model (or the caller) can fix it.
 *
 * @module
 */

import type { Question, QuestionAnswer, QuestionOption } from "./questions.ts";

/** Longest question, option description or written answer, in characters. */
export const MAX_QUESTION_TEXT = 2_000;
/** Longest header or option label, in characters. */
export const MAX_QUESTION_LABEL = 60;

/** Where a problem is (a dotted path) and what it is. */
export interface QuestionProblem {
  /** Dotted path from the value checked: `questions.1.options.0.label`. */
  path: string;
  /** What is wrong. */
  problem: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first key of `value` not in `known`, as a problem, or undefined. */
function extraKey(value: Record<string, unknown>, known: readonly string[], path: string) {
  const extra = Object.keys(value).find((key) => !known.includes(key));
  return extra === undefined ? undefined : { path: `${path}.${extra}`, problem: `is not a known field` };
}

/** A problem when `value` is not a string of 1 to `max` characters (blank does not count). */
function badText(value: unknown, max: number, path: string): QuestionProblem | undefined {
  if (typeof value !== "string") return { path, problem: "must be a string" };
  if (value.trim() === "") return { path, problem: "must not be empty" };
  if (value.length > max) return { path, problem: `must be at most ${max} characters` };
  return undefined;
}

function optionProblem(value: unknown, path: string): QuestionProblem | undefined {
  if (!isObject(value)) return { path, problem: "must be an object { label, description? }" };
  return (
    extraKey(value, ["label", "description"], path) ??
    badText(value.label, MAX_QUESTION_LABEL, `${path}.label`) ??
    (value.description === undefined
      ? undefined
      : typeof value.description === "string" && value.description.length <= MAX_QUESTION_TEXT
        ? undefined
        : {
            path: `${path}.description`,
            problem: `must be a string of at most ${MAX_QUESTION_TEXT} characters`,
          })
  );
}

function questionProblem(value: unknown, path: string): QuestionProblem | undefined {
  if (!isObject(value))
    return { path, problem: "must be an object { question, header, options, multiSelect }" };
  const shape =
    extraKey(value, ["question", "header", "options", "multiSelect"], path) ??
    badText(value.question, MAX_QUESTION_TEXT, `${path}.question`) ??
    badText(value.header, MAX_QUESTION_LABEL, `${path}.header`) ??
    (value.multiSelect === undefined || typeof value.multiSelect === "boolean"
      ? undefined
      : { path: `${path}.multiSelect`, problem: "must be true or false" });
  if (shape !== undefined) return shape;
  const options = value.options;
  if (!Array.isArray(options) || options.length < 2 || options.length > 4)
    return { path: `${path}.options`, problem: "must be an array of 2 to 4 options" };
  const labels = new Set<string>();
  for (const [index, option] of options.entries()) {
    const problem = optionProblem(option, `${path}.options.${index}`);
    if (problem !== undefined) return problem;
    const label = (option as QuestionOption).label;
    if (labels.has(label))
      return {
        path: `${path}.options.${index}.label`,
        problem: `repeats the label ${JSON.stringify(label)}`,
      };
    labels.add(label);
  }
  return undefined;
}

/**
 * The ask tool's input checked: `{ questions }`, 1–4 distinct questions. Returns the questions (with
 * `multiSelect` false where it was left out), or the first problem.
 */
export function checkQuestions(input: unknown): Question[] | QuestionProblem {
  if (!isObject(input)) return { path: "", problem: "must be an object { questions }" };
  const extra = extraKey(input, ["questions"], "");
  if (extra !== undefined) return { ...extra, path: extra.path.slice(1) };
  const { questions } = input;
  if (!Array.isArray(questions) || questions.length < 1 || questions.length > 4)
    return { path: "questions", problem: "must be an array of 1 to 4 questions" };
  const seen = new Set<string>();
  const checked: Question[] = [];
  for (const [index, value] of questions.entries()) {
    const path = `questions.${index}`;
    const problem = questionProblem(value, path);
    if (problem !== undefined) return problem;
    const question = value as Question;
    if (seen.has(question.question))
      return { path: `${path}.question`, problem: "repeats an earlier question" };
    seen.add(question.question);
    const options = question.options.map((option): QuestionOption => {
      const { label, description } = option;
      return description === undefined ? { label } : { label, description };
    });
    checked.push({
      question: question.question,
      header: question.header,
      options,
      multiSelect: question.multiSelect === true,
    });
  }
  return checked;
}

/** What is wrong with one answer to `question`, or undefined. */
function answerProblem(question: Question, value: unknown, path: string): QuestionProblem | undefined {
  if (!isObject(value)) return { path, problem: "must be an answer object { selected?, text? }" };
  const extra = extraKey(value, ["selected", "text"], path);
  if (extra !== undefined) return extra;
  const { selected, text } = value as QuestionAnswer & Record<string, unknown>;
  if (text !== undefined && (typeof text !== "string" || text.length > MAX_QUESTION_TEXT))
    return { path: `${path}.text`, problem: `must be a string of at most ${MAX_QUESTION_TEXT} characters` };
  if (selected !== undefined && !Array.isArray(selected))
    return { path: `${path}.selected`, problem: "must be an array of option labels" };
  const picked = selected ?? [];
  const labels = question.options.map((option) => option.label);
  for (const [index, label] of picked.entries()) {
    if (typeof label !== "string" || !labels.includes(label))
      return {
        path: `${path}.selected.${index}`,
        problem: `is not an option of ${JSON.stringify(question.question)} (its options: ${labels.map((l) => JSON.stringify(l)).join(", ")})`,
      };
    if (picked.indexOf(label) !== index)
      return { path: `${path}.selected.${index}`, problem: `picks ${JSON.stringify(label)} twice` };
  }
  if (!question.multiSelect && picked.length > 1)
    return { path: `${path}.selected`, problem: "picks more than one option of a single-choice question" };
  if (picked.length === 0 && (text === undefined || text.trim() === ""))
    return { path, problem: "picks no option and writes no text (to skip the questions, answer unanswered)" };
  return undefined;
}

/** What is wrong with `answers` to `questions` (one per question, in order), or undefined. */
export function checkAnswers(
  questions: Question[],
  answers: unknown,
  path: string,
): QuestionProblem | undefined {
  if (!Array.isArray(answers) || answers.length !== questions.length)
    return {
      path,
      problem: `must be an array of ${questions.length} answer${questions.length === 1 ? "" : "s"}, one per question`,
    };
  for (const [index, question] of questions.entries()) {
    const problem = answerProblem(question, answers[index], `${path}.${index}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
