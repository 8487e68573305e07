// Prints the next version: node next_version.mjs <current> <change>...
const [current = "0.0.0", ...changes] = process.argv.slice(2);
const [major, minor, patch] = current.split(/[.-]/).map(Number);
const breaking = changes.some((change) => /^\w+(\(.*\))?!:|BREAKING CHANGE/.test(change));
const feature = changes.some((change) => /^feat(\(.*\))?:/.test(change));
const fix = changes.some((change) => /^(fix|perf)(\(.*\))?:/.test(change));
if (breaking && major > 0) console.log(`${major + 1}.0.0`);
else if (breaking || feature) console.log(`${major}.${minor + 1}.0`);
else if (fix) console.log(`${major}.${minor}.${patch + 1}`);
else console.log(current);
