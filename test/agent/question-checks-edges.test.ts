/**
 * checkQuestions and checkAnswers (src/agent/question-checks.ts) called directly: each rule of the
 * ask tool's input (what is an object, text bounds at their exact limits, 1–4 questions, 2–4 options,
 * multiSelect, repeats) and of the person's answers (text, selected, options that exist, the count),
 * each with the path and the sentence the model or the caller reads.
 */
import { describe, expect, it } from "vitest";
import {
  checkAnswers,
  checkQuestions,
  MAX_QUESTION_LABEL,
  MAX_QUESTION_TEXT,
} from "../../src/agent/question-checks.ts";
import type { Question } from "../../src/agent/questions.ts";
import { TWO_QUESTIONS } from "../support/agent.ts";

const option = (label: string) => ({ label });

/** A valid question with `extra` fields replaced. */
function question(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    question: "Which database?",
    header: "Database",
    options: [option("Postgres"), option("SQLite")],
    multiSelect: false,
    ...extra,
  };
}

/** The problem checkQuestions finds in `{ questions }`. */
const problemOf = (questions: unknown) => checkQuestions({ questions });

describe("checkQuestions: what must be an object", () => {
  it.each([
    ["null", null],
    ["a string", "x"],
    ["an array", []],
  ])("the input as %s is refused as a whole", (_, input) => {
    expect(checkQuestions(input)).toEqual({ path: "", problem: "must be an object { questions }" });
  });

  it.each([
    ["null", null],
    ["a string", "Postgres"],
    ["a number", 5],
    ["an array", ["Postgres"]],
  ])("an option that is %s must be an object { label, description? }", (_, value) => {
    expect(problemOf([question({ options: [option("A"), value] })])).toEqual({
      path: "questions.0.options.1",
      problem: "must be an object { label, description? }",
    });
  });

  it.each([
    ["null", null],
    ["a string", "Which database?"],
  ])("a question that is %s must be an object of the four fields", (_, value) => {
    expect(problemOf([question(), value])).toEqual({
      path: "questions.1",
      problem: "must be an object { question, header, options, multiSelect }",
    });
  });

  it("an unknown field of the input is named without a leading dot", () => {
    expect(checkQuestions({ questions: [question()], urgent: true })).toEqual({
      path: "urgent",
      problem: "is not a known field",
    });
  });
});

describe("checkQuestions: text bounds", () => {
  it.each([
    ["not a string", 5, "must be a string"],
    ["empty", "", "must not be empty"],
    ["blank", "   ", "must not be empty"],
    [
      "one past the limit",
      "x".repeat(MAX_QUESTION_LABEL + 1),
      `must be at most ${MAX_QUESTION_LABEL} characters`,
    ],
  ])("an option label %s is refused at its path", (_, label, problem) => {
    expect(problemOf([question({ options: [option("A"), { label }] })])).toEqual({
      path: "questions.0.options.1.label",
      problem,
    });
  });

  it("labels, headers and questions exactly at their limits are accepted", () => {
    const label = "x".repeat(MAX_QUESTION_LABEL);
    const checked = problemOf([
      question({
        question: "q".repeat(MAX_QUESTION_TEXT),
        header: "h".repeat(MAX_QUESTION_LABEL),
        options: [{ label, description: "d".repeat(MAX_QUESTION_TEXT) }, option("B")],
      }),
    ]);
    expect(checked).toEqual([
      {
        question: "q".repeat(MAX_QUESTION_TEXT),
        header: "h".repeat(MAX_QUESTION_LABEL),
        options: [{ label, description: "d".repeat(MAX_QUESTION_TEXT) }, { label: "B" }],
        multiSelect: false,
      },
    ]);
  });

  it.each([
    ["not a string", 5],
    ["one past the limit", "d".repeat(MAX_QUESTION_TEXT + 1)],
  ])("an option description %s is refused at its path", (_, description) => {
    expect(problemOf([question({ options: [option("A"), { label: "B", description }] })])).toEqual({
      path: "questions.0.options.1.description",
      problem: `must be a string of at most ${MAX_QUESTION_TEXT} characters`,
    });
  });

  it("a bad label is found even when the option has no description", () => {
    expect(problemOf([question({ options: [option("A"), { label: "" }] })])).toMatchObject({
      path: "questions.0.options.1.label",
    });
  });

  it.each([
    ["question", { question: "" }, "questions.0.question", "must not be empty"],
    [
      "question",
      { question: "q".repeat(MAX_QUESTION_TEXT + 1) },
      "questions.0.question",
      `must be at most ${MAX_QUESTION_TEXT} characters`,
    ],
    ["header", { header: " " }, "questions.0.header", "must not be empty"],
    [
      "header",
      { header: "h".repeat(MAX_QUESTION_LABEL + 1) },
      "questions.0.header",
      `must be at most ${MAX_QUESTION_LABEL} characters`,
    ],
    ["multiSelect", { multiSelect: "yes" }, "questions.0.multiSelect", "must be true or false"],
    ["multiSelect", { multiSelect: null }, "questions.0.multiSelect", "must be true or false"],
  ])("a bad %s is refused at its path", (_, extra, path, problem) => {
    expect(problemOf([question(extra)])).toEqual({ path, problem });
  });
});

describe("checkQuestions: counts, multiSelect and repeats", () => {
  it("multiSelect left out is accepted and comes back false; true stays true", () => {
    const { multiSelect: _, ...without } = question();
    expect(problemOf([without, question({ question: "Which cache?", multiSelect: true })])).toMatchObject([
      { question: "Which database?", multiSelect: false },
      { question: "Which cache?", multiSelect: true },
    ]);
  });

  it("1 and 4 questions are accepted; 0 and 5 are not", () => {
    const numbered = (count: number) =>
      Array.from({ length: count }, (_, index) => question({ question: `Q${index}?` }));
    expect(problemOf(numbered(1))).toHaveLength(1);
    expect(problemOf(numbered(4))).toHaveLength(4);
    for (const count of [0, 5])
      expect(problemOf(numbered(count))).toEqual({
        path: "questions",
        problem: "must be an array of 1 to 4 questions",
      });
  });

  it("2 and 4 options are accepted; 5 are not", () => {
    const options = (count: number) => Array.from({ length: count }, (_, index) => option(`O${index}`));
    expect(problemOf([question({ options: options(2) })])).toHaveLength(1);
    expect(problemOf([question({ options: options(4) })])).toMatchObject([{ options: options(4) }]);
    expect(problemOf([question({ options: options(5) })])).toEqual({
      path: "questions.0.options",
      problem: "must be an array of 2 to 4 options",
    });
  });

  it("the same question twice is refused at the repeat", () => {
    expect(problemOf([question(), question({ header: "Again" })])).toEqual({
      path: "questions.1.question",
      problem: "repeats an earlier question",
    });
  });

  it("an unknown field of an option is named at the option's path", () => {
    expect(problemOf([question({ options: [option("A"), { label: "B", icon: "x" }] })])).toEqual({
      path: "questions.0.options.1.icon",
      problem: "is not a known field",
    });
  });
});

const ASKED: Question[] = TWO_QUESTIONS;

/** The problem with `second` as the answer to the second question (the first is answered well). */
const secondProblem = (second: unknown) => checkAnswers(ASKED, [{ selected: ["SQLite"] }, second], "answers");

describe("checkAnswers", () => {
  it("names the count of answers it wants, in the plural for more than one question", () => {
    expect(checkAnswers(ASKED, [{ selected: ["SQLite"] }], "answers")).toEqual({
      path: "answers",
      problem: "must be an array of 2 answers, one per question",
    });
    expect(checkAnswers(ASKED.slice(0, 1), [], "answers")).toEqual({
      path: "answers",
      problem: "must be an array of 1 answer, one per question",
    });
  });

  it.each([
    ["null", null],
    ["a string", "Auth"],
  ])("an answer that is %s must be an answer object", (_, value) => {
    expect(secondProblem(value)).toEqual({
      path: "answers.1",
      problem: "must be an answer object { selected?, text? }",
    });
  });

  it.each([
    ["not a string", 5],
    ["one past the limit", "t".repeat(MAX_QUESTION_TEXT + 1)],
  ])("a text %s is refused, even with an option picked", (_, text) => {
    expect(secondProblem({ selected: ["Auth"], text })).toEqual({
      path: "answers.1.text",
      problem: `must be a string of at most ${MAX_QUESTION_TEXT} characters`,
    });
  });

  it("a text exactly at the limit is accepted", () => {
    expect(secondProblem({ text: "t".repeat(MAX_QUESTION_TEXT) })).toBeUndefined();
  });

  it("selected that is not an array is refused", () => {
    expect(secondProblem({ selected: "Auth" })).toEqual({
      path: "answers.1.selected",
      problem: "must be an array of option labels",
    });
  });

  it("an option the question does not have is refused with the question and its options", () => {
    expect(secondProblem({ selected: ["Auth", "Billing"] })).toEqual({
      path: "answers.1.selected.1",
      problem: 'is not an option of "Which features?" (its options: "Auth", "Search")',
    });
    expect(secondProblem({ selected: [5] })).toMatchObject({ path: "answers.1.selected.0" });
  });

  it("a picked value that is not a string is refused even where the questions given claim it as a label", () => {
    // The bridge's main thread checks answers against questions a worker sent: only strings are labels.
    const claimed = [{ ...ASKED[0], options: [{ label: 5 }, { label: "SQLite" }] }] as unknown as Question[];
    expect(checkAnswers(claimed, [{ selected: [5] }], "answers")).toEqual({
      path: "answers.0.selected.0",
      problem: 'is not an option of "Which database?" (its options: 5, "SQLite")',
    });
  });

  it("the same option twice is refused at the repeat", () => {
    expect(secondProblem({ selected: ["Search", "Search"] })).toEqual({
      path: "answers.1.selected.1",
      problem: 'picks "Search" twice',
    });
  });

  it("an answer with nothing picked and no text says how to skip instead", () => {
    expect(secondProblem({ selected: [] })).toEqual({
      path: "answers.1",
      problem: "picks no option and writes no text (to skip the questions, answer unanswered)",
    });
  });
});
