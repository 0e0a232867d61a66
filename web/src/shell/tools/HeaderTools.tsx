import { PLATFORM_TENANT } from '@console/contract/paths';
import { useSession } from '../../store/session';
import { FOLD, Foldable } from '../layout/header/headerFold';
import { ErrorLogTool } from './ErrorLogTool';
import { NoticeTool } from './NoticeTool';
import { ServerCheckTool } from './ServerCheckTool';
import { TestingTool } from './TestingTool';

/**
 * The header's tools: testing (platform tenant only, spec 6), local error log, notices, server check. Each
 * folds into the header's "more tools" menu on a narrow header (`Foldable`).
 */
export function HeaderTools() {
  const platform = useSession((s) => s.userInfo?.tenant_id === PLATFORM_TENANT);
  return (
    <>
      {platform && (
        <Foldable at={FOLD.rare}>
          <TestingTool />
        </Foldable>
      )}
      <Foldable at={FOLD.errorLog}>
        <ErrorLogTool />
      </Foldable>
      <Foldable at={FOLD.notice}>
        <NoticeTool />
      </Foldable>
      <Foldable at={FOLD.rare}>
        <ServerCheckTool />
      </Foldable>
    </>
  );
}
