/** Env files: out of git, and readable by their owner only. */

import type { EnvFileFacts, ProjectFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../../doctor-model/finding.js";
import { holdsSecret, secretNames } from "../gather.js";

const notIgnored = defineCheck(
  "files.env-not-ignored",
  "error",
  "An env file holding secrets (.env.local) is not git-ignored.",
  "security",
);
const tracked = defineCheck("files.env-tracked", "error", "git tracks an env file holding secrets.", "security");
const mode = defineCheck(
  "files.env-mode",
  "error",
  "An env file holding secrets is readable by other users (mode wider than 0600).",
  "security",
);

/** Env files that hold a secret's value (or are .local files, which are for secrets by convention). */
export function secretFiles(facts: ProjectFacts): EnvFileFacts[] {
  const names = secretNames(facts);
  return facts.envFiles.filter(
    (f) =>
      !f.template && (/\.local$/.test(f.name) || Object.entries(f.values).some(([k, v]) => holdsSecret(k, v, names))),
  );
}

function fileFindings(facts: ProjectFacts): Finding[] {
  const found: Finding[] = [];
  for (const file of secretFiles(facts)) {
    if (file.tracked)
      found.push(
        tracked.report(
          `git tracks ${file.name}, which holds secrets: everyone with the repository has them.`,
          `git rm --cached ${file.name}, add it to .gitignore, and replace the secrets it held (they stay in the history).`,
          file.name,
        ),
      );
    else if (!file.ignored)
      found.push(
        notIgnored.report(
          `${file.name} holds secrets and is not git-ignored: one \`git add .\` commits them.`,
          `Add ${file.name} to .gitignore (\`create-auth doctor --fix\` does).`,
          file.name,
        ),
      );
    if ((file.mode & 0o077) !== 0)
      found.push(
        mode.report(
          `Other users of this machine can read ${file.name} (mode ${file.mode.toString(8).padStart(3, "0")}) and copy the secrets it holds.`,
          `chmod 600 ${file.name} (\`create-auth doctor --fix\` does).`,
          file.name,
        ),
      );
  }
  return found;
}

export const fileChecks: CheckGroup = { checks: [notIgnored, tracked, mode], run: fileFindings };
