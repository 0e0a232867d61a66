import { PLATFORM_TENANT } from '@console/contract/paths';
import { useSession } from '../../store/session';
import { ErrorLogTool } from './ErrorLogTool';
import { NoticeTool } from './NoticeTool';
import { ServerCheckTool } from './ServerCheckTool';
import { TestingTool } from './TestingTool';

/** The header's tools: testing (platform tenant only, spec 6), local error log, notices, server check. */
export function HeaderTools() {
  const platform = useSession((s) => s.userInfo?.tenant_id === PLATFORM_TENANT);
  return (
    <>
      {platform && <TestingTool />}
      <ErrorLogTool />
      <NoticeTool />
      <ServerCheckTool />
    </>
  );
}
