// The ids of the Testing view's items (no 'vscode': unit-tested). VS Code joins an item's id to its parents' with a
// NUL character and refuses an id that holds one (createTestItem throws), so a case named with a NUL in it would
// leave its whole file without items: the name is written into the id with NUL and `%` as %-codes, one to one.

/** The id of a case's item below its file's. */
export function caseItemId(fileId: string, caseName: string): string {
  return `${fileId}#${caseName.replace(/[%\0]/g, (c) => (c === '%' ? '%25' : '%00'))}`;
}
