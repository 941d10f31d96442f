/** A place in the file: lines and characters from 0, as the editor counts them. */
export interface TextRange {
  readonly startLine: number;
  readonly startCharacter: number;
  readonly endLine: number;
  readonly endCharacter: number;
}
