import { describe, expect, it } from "vitest";
import { parseCsv } from "./csv";

describe("parseCsv", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, over CRLF or LF", () => {
    expect(
      parseCsv(
        'name,note\r\n"Ada, Countess","said ""hi""\nthen left"\nBob,plain\n',
        10,
      ),
    ).toEqual([
      ["name", "note"],
      ["Ada, Countess", 'said "hi"\nthen left'],
      ["Bob", "plain"],
    ]);
  });

  it("reads a semicolon-separated file as such, stops at maxRows, and leaves out a cut last line", () => {
    expect(parseCsv("a;b;c\n1;2,5;3\n4;5;6\n7;8", 2)).toEqual([
      ["a", "b", "c"],
      ["1", "2,5", "3"],
    ]);
    expect(parseCsv("a,b\n1,2\n3,", 10, { dropLastLine: true })).toEqual([
      ["a", "b"],
      ["1", "2"],
    ]);
  });

  it("keeps markup as text", () => {
    expect(parseCsv("<img src=x onerror=alert(1)>,b", 10)).toEqual([
      ["<img src=x onerror=alert(1)>", "b"],
    ]);
  });
});
