import { Spin } from 'antd';

/** Shown while a page's code or first data loads. */
export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240, height: '100%' }}>
      <Spin size="large" />
    </div>
  );
}
