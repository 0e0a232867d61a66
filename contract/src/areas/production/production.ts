import { z } from 'zod';
import { defineActions, okOutput } from '../../action.js';
import { defineResource, idInput, idListInput } from '../../resource.js';

/**
 * The IPC back office (domain.md "Production"): factories and their stations, batches of devices with
 * their SNs. Platform data kept by the vendor (tenant 000000); every call is also answered under
 * /tc/ymy-ipc/back (the server's URL aliases).
 */
export const IPC_PATH = '/sc/ymy-ipc/back';
/** station operators (`users/submit`): platform accounts that work the stations of one factory */
export const IPC_USERS_PATH = '/sc/ymy-ipc/users';
export const OPERATOR_ACCOUNT = /^[A-Za-z0-9_.-]{2,45}$/;
/**
 * The stations' own calls (not the console's): a burn station, signed in with its station key
 * (`Authorization: Station <stationCode>:<key>`), takes the bundle it burns into a device (docs/device-protocol.md §10).
 */
export const STATION_API_PATH = '/sc/ymy-ipc/station';
/** what a burn station writes into one device: its cloud credentials and its emergency-code secret */
export const burnBundle = z.object({
  sn: z.string(),
  batchNo: z.string(),
  cloudVendor: z.number().int(),
  cloudProductId: z.string(),
  deviceName: z.string(),
  deviceSecret: z.string().nullable(),
  certificate: z.string().nullable(),
  privateKey: z.string().nullable(),
  /** the 32 bytes a lock checks its emergency codes with, lowercase hex */
  emergencySecret: z.string(),
  /** the emergency codes' format (docs/device-protocol.md §10) */
  emergencyScheme: z.literal('EU1'),
  burnTime: z.string(),
});

const catalogueItem = z.object({ id: z.string(), name: z.string(), code: z.string() });

const remark = { type: 'text', label: { zh: '备注', en: 'Remark' }, max: 500 } as const;

/** SN prefixes: capitals and digits, so that every SN of a batch sorts and matches as it reads */
export const SN_PREFIX_PATTERN = /^[A-Z0-9]{1,16}$/;
/** digits after the prefix: a batch's SNs are prefix + a zero-padded serial of this width */
export const SN_SERIAL_DIGITS = 8;
export const MAX_BATCH_QUANTITY = 1_000_000;

export const factoryResource = defineResource({
  code: 'factory',
  path: IPC_PATH,
  routes: { list: 'factory-list', detail: 'factory-detail', submit: 'add-factory', remove: 'del-factory' },
  title: { zh: '工厂管理', en: 'Factories' },
  scope: 'platform',
  nameField: 'factoryName',
  page: 'custom',
  menu: {
    parent: 'production', route: '/production/factory', name: { zh: '工厂管理', en: 'Factories' }, sort: 1, icon: 'iconfont iconicon_work',
    buttons: [
      { code: 'station_add', name: { zh: '新增工位', en: 'Add station' }, alias: 'add', placement: 'row' },
      { code: 'station_edit', name: { zh: '修改工位', en: 'Edit station' }, alias: 'edit', placement: 'row' },
    ],
  },
  fields: {
    factoryName: {
      type: 'string', label: { zh: '工厂名称', en: 'Factory name' }, required: { zh: '请输入工厂名称', en: 'Please enter the factory name' },
      max: 64, search: 'like', sortable: true, unique: true,
    },
    factoryCode: {
      type: 'string', label: { zh: '工厂编码', en: 'Factory code' }, required: { zh: '请输入工厂编码', en: 'Please enter the factory code' },
      max: 32, search: 'like', sortable: true, unique: true, immutable: true,
    },
    contact: { type: 'string', label: { zh: '联系人', en: 'Contact' }, max: 32 },
    phone: { type: 'string', label: { zh: '联系电话', en: 'Phone' }, max: 32, format: 'phone' },
    address: { type: 'string', label: { zh: '地址', en: 'Address' }, max: 200, width: 200 },
    remark,
  },
  actions: defineActions(IPC_USERS_PATH, {
    submitOperator: {
      segment: 'submit', method: 'POST', permission: 'station_add', platform: 'write', title: { zh: '工位操作员', en: 'Factories: save a station operator' },
      input: z.object({
        id: idInput.optional(),
        factoryId: idInput,
        account: z.string().trim().regex(OPERATOR_ACCOUNT),
        /** the MD5 hex of what was typed (api.md §6); required for a new operator */
        password: z.string().trim().toLowerCase().regex(/^[0-9a-f]{32}$/).optional(),
        realName: z.string().trim().min(1).max(64),
        stationIds: idListInput,
      }),
      output: z.object({ id: z.string() }),
    },
    operators: {
      segment: 'list', method: 'GET', permission: 'factory', title: { zh: '工厂的工位操作员', en: 'Factories: station operators' },
      input: z.object({ factoryId: idInput }),
      output: z.array(z.object({ id: z.string(), account: z.string(), realName: z.string().nullable(), stationIds: z.string(), stationNames: z.string() })),
    },
    /** removes station operators (their accounts go with them), all or none */
    removeOperators: {
      segment: 'remove', method: 'POST', permission: 'station_edit', platform: 'write', title: { zh: '删除工位操作员', en: 'Factories: remove station operators' },
      input: z.object({ ids: idListInput }), output: okOutput,
    },
  }),
});

export const stationResource = defineResource({
  code: 'station',
  path: IPC_PATH,
  routes: { list: 'station-list', detail: 'station-detail', submit: 'add-station', remove: 'del-station' },
  title: { zh: '工位', en: 'Stations' },
  scope: 'platform',
  nameField: 'stationName',
  within: { parent: 'factory', field: 'factoryId', codes: { add: 'station_add', edit: 'station_edit', delete: 'station_edit', view: 'factory' } },
  fields: {
    factoryId: {
      type: 'ref', ref: 'factory', label: { zh: '工厂', en: 'Factory' }, required: { zh: '请选择工厂', en: 'Please select the factory' },
      search: 'equal', immutable: true, width: 140, onRemove: 'cascade',
    },
    stationName: {
      type: 'string', label: { zh: '工位名称', en: 'Station name' }, required: { zh: '请输入工位名称', en: 'Please enter the station name' },
      max: 64, search: 'like', sortable: true,
    },
    stationCode: {
      type: 'string', label: { zh: '工位编码', en: 'Station code' }, required: { zh: '请输入工位编码', en: 'Please enter the station code' },
      max: 32, search: 'like', sortable: true, unique: true, immutable: true,
    },
    stationType: {
      type: 'int', label: { zh: '工位类型', en: 'Station type' }, dict: 'station_type', required: { zh: '请选择工位类型', en: 'Please select the station type' },
      search: 'equal', width: 110,
    },
    ip: { type: 'string', format: 'ip', label: { zh: 'IP 地址', en: 'IP address' }, max: 45, width: 140, help: { zh: '工位电脑的 IPv4 或 IPv6 地址', en: "The station computer's IPv4 or IPv6 address" } },
    lastSeenTime: { type: 'datetime', label: { zh: '最近在线', en: 'Last seen' }, form: false },
    keyTime: { type: 'datetime', label: { zh: '工位密钥签发', en: 'Station key issued' }, form: false },
    remark,
  },
  actions: defineActions(IPC_PATH, {
    editRemark: {
      segment: 'edit-station-remark', method: 'POST', permission: 'station_edit', platform: 'write', title: { zh: '修改工位备注', en: 'Stations: edit the remark' },
      input: z.object({ id: idInput, remark: z.string().trim().max(500).nullish() }), output: okOutput,
    },
    /** a new key for the station (the one before stops working), answered this once: the station signs in with it */
    issueKey: {
      segment: 'issue-station-key', method: 'POST', permission: 'station_edit', platform: 'write', title: { zh: '签发工位密钥', en: 'Stations: issue the station key' },
      input: z.object({ id: idInput }),
      output: z.object({ stationCode: z.string(), key: z.string(), keyTime: z.string() }),
    },
  }),
});

export const batchResource = defineResource({
  code: 'batch',
  path: IPC_PATH,
  routes: { list: 'batch-list', detail: 'batch-detail', submit: 'add-batch', remove: 'del-batch' },
  title: { zh: '批次管理', en: 'Batches' },
  scope: 'platform',
  nameField: 'batchNo',
  page: 'custom',
  menu: {
    parent: 'production', route: '/production/batch', name: { zh: '批次管理', en: 'Batches' }, sort: 2, icon: 'iconfont iconicon_task',
    buttons: [
      { code: 'batch_export', name: { zh: '导出设备', en: 'Export devices' }, alias: 'export', placement: 'both' },
      { code: 'batch_log', name: { zh: '生产记录', en: 'Production notes' }, alias: 'log', placement: 'row', action: 'editLog', custom: true },
    ],
  },
  fields: {
    batchNo: {
      type: 'string', label: { zh: '批次号', en: 'Batch no.' }, required: { zh: '请输入批次号', en: 'Please enter the batch number' },
      max: 32, search: 'like', sortable: true, unique: true, immutable: true, width: 150,
    },
    factoryId: {
      type: 'ref', ref: 'factory', label: { zh: '工厂', en: 'Factory' }, required: { zh: '请选择工厂', en: 'Please select the factory' },
      search: 'equal', width: 140,
    },
    productId: {
      type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, required: { zh: '请选择产品', en: 'Please select the product' },
      search: 'equal', immutable: true, width: 140,
    },
    projectId: { type: 'ref', ref: 'project', label: { zh: '项目', en: 'Project' }, search: 'equal', width: 140 },
    cloudVendor: {
      type: 'int', label: { zh: '云平台', en: 'IoT cloud' }, dict: 'cloud_vendor', required: { zh: '请选择云平台', en: 'Please select the IoT cloud' },
      search: 'equal', immutable: true, width: 160,
    },
    quantity: {
      type: 'int', label: { zh: '数量', en: 'Quantity' }, required: { zh: '请输入数量', en: 'Please enter the quantity' },
      min: 1, max: MAX_BATCH_QUANTITY, immutable: true, sortable: true, key: true, width: 100,
    },
    snPrefix: {
      type: 'string', label: { zh: 'SN 前缀', en: 'SN prefix' }, required: { zh: '请输入 SN 前缀', en: 'Please enter the SN prefix' },
      max: 16, immutable: true, search: 'equal', width: 110,
      help: { zh: '1–16 位字母或数字 (存为大写); SN 为前缀加 8 位流水号', en: '1–16 letters or digits (kept in capitals); an SN is the prefix and an 8-digit serial' },
    },
    snStart: { type: 'string', label: { zh: '起始 SN', en: 'First SN' }, form: false, width: 170 },
    snEnd: { type: 'string', label: { zh: '结束 SN', en: 'Last SN' }, form: false, width: 170 },
    firmwareVersion: { type: 'string', label: { zh: '固件版本', en: 'Firmware version' }, max: 32, width: 120 },
    plannedDate: { type: 'date', label: { zh: '计划日期', en: 'Planned date' }, sortable: true, width: 120 },
    state: {
      type: 'int', label: { zh: '状态', en: 'State' }, dict: 'batch_state', search: 'equal', defaultValue: 1, key: true, width: 100,
    },
    log: { type: 'text', label: { zh: '生产记录', en: 'Production notes' }, max: 2000, form: false },
  },
  actions: defineActions(IPC_PATH, {
    // the factory tool's catalogue: the product types, models, projects and products the caller may see
    ptType: { segment: 'pt-type', method: 'GET', permission: 'batch', title: { zh: '产品类型 (工厂)', en: 'IPC: product types' }, input: z.object({}), output: z.array(catalogueItem) },
    ptModel: {
      segment: 'pt-model', method: 'GET', permission: 'batch', title: { zh: '产品型号 (工厂)', en: 'IPC: models' },
      input: z.object({ typeId: idInput.optional() }), output: z.array(catalogueItem.extend({ typeId: z.string() })),
    },
    project: {
      segment: 'project', method: 'GET', permission: 'batch', title: { zh: '项目 (工厂)', en: 'IPC: projects' },
      input: z.object({ modelId: idInput.optional() }), output: z.array(catalogueItem),
    },
    product: {
      segment: 'product', method: 'GET', permission: 'batch', title: { zh: '产品 (工厂)', en: 'IPC: products' },
      input: z.object({ typeId: idInput.optional(), modelId: idInput.optional() }),
      output: z.array(catalogueItem.extend({ typeId: z.string(), modelId: z.string(), cloudVendor: z.number().int(), cloudProductId: z.string().nullable() })),
    },
    editLog: {
      segment: 'edit-batch-log', method: 'POST', permission: 'batch_log', platform: 'write', title: { zh: '生产记录', en: 'Batches: production notes' },
      input: z.object({ id: idInput, log: z.string().trim().min(1).max(2000) }), output: okOutput,
    },
    logHistory: {
      segment: 'batch-log-history', method: 'GET', permission: 'batch', title: { zh: '生产记录历史', en: 'Batches: production note history' },
      input: z.object({ id: idInput }),
      output: z.array(z.object({ id: z.string(), log: z.string(), createUser: z.string(), createUserName: z.string().nullable(), createTime: z.string() })),
    },
  }),
});

export const factoryDeviceResource = defineResource({
  code: 'factory_device',
  path: IPC_PATH,
  routes: { list: 'get-device-list', detail: 'get-device-detail' },
  title: { zh: '批次设备', en: 'Batch devices' },
  scope: 'platform',
  nameField: 'sn',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  defaultSort: { field: 'sn', order: 'asc' },
  within: { parent: 'batch', field: 'batchId', codes: { view: 'batch' } },
  io: { export: { name: 'export-device-list', permission: 'batch_export' } },
  dynamicColumns: { path: `${IPC_PATH}/get-dynamic-columns`, field: 'attributes', by: ['batchId', 'productId'] },
  fields: {
    sn: { type: 'string', label: { zh: 'SN', en: 'SN' }, max: 32, search: 'like', sortable: true, upperCase: true, width: 180 },
    // the batch's devices go with it (never burned, delivered nor seen online: those refuse it)
    batchId: { type: 'ref', ref: 'batch', label: { zh: '批次', en: 'Batch' }, search: 'equal', width: 150, onRemove: 'cascade' },
    productId: { type: 'ref', ref: 'product_info', label: { zh: '产品', en: 'Product' }, search: 'equal', width: 140 },
    mac: { type: 'string', format: 'mac', label: { zh: 'MAC', en: 'MAC' }, max: 17, search: 'equal', width: 150 },
    stationId: { type: 'ref', ref: 'station', label: { zh: '烧录工位', en: 'Station' }, width: 130 },
    burnTime: { type: 'datetime', label: { zh: '烧录时间', en: 'Burned at' }, sortable: true },
    testResult: { type: 'int', label: { zh: '测试结果', en: 'Test result' }, dict: 'cit_result', search: 'equal', width: 100 },
    // 000000 until a delivery gives the device to a customer tenant (docs/decisions.md)
    ownerTenantId: { type: 'string', label: { zh: '所属租户', en: 'Owner tenant' }, max: 12, search: 'equal', width: 110 },
    attributes: { type: 'json', label: { zh: '设备属性', en: 'Attributes' }, form: false },
  },
  actions: defineActions(IPC_PATH, {
    dynamicColumns: {
      segment: 'get-dynamic-columns', method: 'GET', permission: 'batch', title: { zh: '设备列表的动态列', en: 'Batch devices: the columns of a product type' },
      input: z.object({ batchId: idInput.optional(), productId: idInput.optional(), productTypeId: idInput.optional() }),
      output: z.array(z.object({ key: z.string(), label: z.string(), type: z.enum(['text', 'number', 'date', 'boolean']) })),
    },
  }),
});

/**
 * Device credentials of the two IoT clouds (domain.md "Certificate"): Tencent Cloud IoT Explorer (product id,
 * device name, and a PSK or an X.509 certificate and its key) and Alibaba Cloud IoT Platform (ProductKey,
 * DeviceName, DeviceSecret). Imported in bulk (xlsx, csv, or a zip of the sheet and the PEM files it names),
 * all rows or none; secrets sealed at rest and never answered. Device names are SNs: one per platform.
 */
export const certResource = defineResource({
  code: 'cert',
  path: IPC_PATH,
  routes: { list: 'get-cert-list', detail: 'get-cert-detail' },
  title: { zh: '证书管理', en: 'Certificates' },
  scope: 'platform',
  nameField: 'deviceName',
  readOnly: true,
  buttons: { add: false, edit: false, delete: false },
  menu: {
    parent: 'production', route: '/production/cert', name: { zh: '证书管理', en: 'Certificates' }, sort: 3, icon: 'iconfont iconicon_safety',
    buttons: [
      { code: 'cert_import', name: { zh: '导入证书', en: 'Import' }, alias: 'import', placement: 'toolbar' },
      {
        code: 'cert_release', name: { zh: '释放', en: 'Release' }, alias: 'release', placement: 'row', action: 'release', shownWhen: { field: 'state', values: [2] },
        confirm: { zh: '释放该证书? 它回到空闲状态, 可再分配给其他批次。', en: 'Release this certificate? It becomes free again, for another batch.' },
        done: { zh: '已释放 {released} 张证书', en: '{released} certificate(s) released' },
      },
      {
        code: 'cert_revoke', name: { zh: '吊销', en: 'Revoke' }, alias: 'revoke', placement: 'row', action: 'revoke', shownWhen: { field: 'state', values: [1, 2, 3] },
        confirm: { zh: '吊销该证书? 吊销后不能再分配或烧录, 设备也不能再用它连接。', en: 'Revoke this certificate? It can no longer be allocated or burned, and no device can connect with it.' },
        done: { zh: '已吊销 {revoked} 张证书', en: '{revoked} certificate(s) revoked' },
      },
    ],
  },
  io: { import: { name: 'import-cert-list', permission: 'cert_import', bundle: true } },
  fields: {
    cloudVendor: {
      type: 'int', label: { zh: '云平台', en: 'IoT cloud' }, dict: 'cloud_vendor', required: { zh: '请选择云平台', en: 'Please select the IoT cloud' },
      search: 'equal', width: 160,
    },
    cloudProductId: {
      type: 'string', label: { zh: '云端产品ID', en: 'Cloud product ID' }, required: { zh: '请输入云端产品ID (ProductKey)', en: 'Please enter the cloud product ID (ProductKey)' },
      max: 64, search: 'equal', width: 150,
    },
    deviceName: {
      type: 'string', label: { zh: '设备名称', en: 'Device name' }, required: { zh: '请输入设备名称', en: 'Please enter the device name' },
      max: 64, search: 'like', sortable: true, unique: true, width: 170,
    },
    deviceSecret: { type: 'string', label: { zh: '设备密钥', en: 'Device secret' }, max: 128, secret: true, list: false, help: { zh: '腾讯云 PSK 或阿里云 DeviceSecret', en: 'The Tencent PSK or the Alibaba DeviceSecret' } },
    certificate: { type: 'text', label: { zh: '设备证书 (PEM)', en: 'Certificate (PEM)' }, max: 8000, list: false },
    privateKey: { type: 'text', label: { zh: '设备私钥 (PEM)', en: 'Private key (PEM)' }, max: 8000, secret: true, list: false },
    fingerprint: { type: 'string', label: { zh: '证书指纹', en: 'Fingerprint' }, form: false, list: false, search: 'equal', unique: true },
    validTo: { type: 'datetime', label: { zh: '证书到期', en: 'Valid to' }, form: false, sortable: true },
    state: { type: 'int', label: { zh: '状态', en: 'State' }, dict: 'cert_state', form: false, search: 'equal', width: 90 },
    // a removed batch's certificates go back to free (certs.ts)
    batchId: { type: 'ref', ref: 'batch', label: { zh: '批次', en: 'Batch' }, form: false, search: 'equal', width: 140, onRemove: 'detach' },
    deviceSn: { type: 'string', label: { zh: '设备 SN', en: 'Device SN' }, form: false, search: 'equal', width: 160 },
  },
  actions: defineActions(IPC_PATH, {
    allocate: {
      segment: 'allocate-cert', method: 'POST', permission: 'cert_import', platform: 'write', title: { zh: '为批次分配证书', en: 'Certificates: allocate to a batch' },
      input: z.object({ batchId: idInput }),
      output: z.object({ allocated: z.number().int(), missing: z.number().int() }),
    },
    /** allocated certificates back to free (their devices, never burned, lose them), all or none */
    release: {
      segment: 'release-cert', method: 'POST', permission: 'cert_release', platform: 'write', title: { zh: '释放证书', en: 'Certificates: release' },
      input: z.object({ ids: idListInput }), output: z.object({ released: z.number().int() }),
    },
    /** certificates no longer to be used (allocated, burned or connected), all or none */
    revoke: {
      segment: 'revoke-cert', method: 'POST', permission: 'cert_revoke', platform: 'write', title: { zh: '吊销证书', en: 'Certificates: revoke' },
      input: z.object({ ids: idListInput }), output: z.object({ revoked: z.number().int() }),
    },
  }),
});
