// Runs in every test file: folders made by tempDir() outside a test go when the file's tests end.
import { afterAll, afterEach } from "vitest";
import { removeFileTempDirs } from "../helpers.js";

let anyFailed = false;
afterEach(({ task }) => {
  if (task.result?.state === "fail") anyFailed = true;
});
afterAll(() => removeFileTempDirs(anyFailed));
