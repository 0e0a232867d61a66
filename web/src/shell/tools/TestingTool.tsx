import { ExperimentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HeaderIconButton } from '../layout/header/HeaderIconButton';

/** Path of the testing page (public route, spec 2). */
export const TESTING_PATH = '/test';

/** The testing icon: opens the testing page. HeaderTools shows it to the platform tenant only (spec 6). */
export function TestingTool() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <HeaderIconButton
      label={t('tools.testing')}
      icon={<ExperimentOutlined />}
      onClick={() => navigate(TESTING_PATH)}
      data-testid="tool-testing"
    />
  );
}
