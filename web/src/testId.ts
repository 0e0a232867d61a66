/** A data-testid for antd props objects (button props and the like), which do not declare data-* attributes. */
export function testId(id: string): { 'data-testid': string } {
  return { 'data-testid': id };
}
