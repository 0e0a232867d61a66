import type { AgreementType } from '@console/contract';

/**
 * The default user agreement and privacy policy shipped with the product, in both languages. Operators
 * replace them on the agreement settings screen; these are real, usable texts, not filler.
 */
export const DEFAULT_AGREEMENTS: ReadonlyArray<{ type: AgreementType; language: 'zh' | 'en'; title: string; content: string }> = [
  {
    type: 'user', language: 'zh', title: '用户服务协议',
    content: `<h2>用户服务协议</h2>
<p>欢迎使用本平台提供的智能门锁与物联网设备服务(以下简称"本服务")。在注册、登录或使用本服务前, 请您仔细阅读本协议。您使用本服务即表示您已阅读并同意本协议的全部内容。</p>
<h3>一、账号</h3>
<p>1. 您应使用真实、准确的信息注册账号, 并妥善保管账号和密码。因您保管不善导致的损失由您自行承担。</p>
<p>2. 企业(租户)管理员可为其成员创建、停用或删除账号, 并分配角色与权限。</p>
<p>3. 通过第三方方式注册的账号, 须经管理员审核通过后方可使用。</p>
<h3>二、设备与服务</h3>
<p>1. 您应仅将本服务用于您有权管理的设备, 不得用于他人设备或任何违法用途。</p>
<p>2. 设备的固件升级(OTA)、远程开锁、授权等操作将被记录, 以便追溯和安全审计。</p>
<p>3. 设备须在授权的销售区域内激活与使用; 跨区域激活将触发区域告警。</p>
<h3>三、云存储与付费服务</h3>
<p>云存储等付费服务按订单约定的期限和价格提供。服务期满未续费的, 相关数据将按订单约定的保留期限后删除。</p>
<h3>四、禁止行为</h3>
<p>您不得尝试绕过权限控制、访问其他租户的数据、干扰系统运行, 或对本服务进行反向工程。</p>
<h3>五、责任限制</h3>
<p>因不可抗力、网络运营商故障或您自身原因造成的服务中断或数据损失, 本平台在法律允许的范围内不承担责任。</p>
<h3>六、协议变更</h3>
<p>本协议更新时, 将在本页面公布新版本及生效时间。继续使用本服务即视为接受更新后的协议。</p>`,
  },
  {
    type: 'user', language: 'en', title: 'User Service Agreement',
    content: `<h2>User Service Agreement</h2>
<p>Welcome to the smart-lock and IoT device services of this platform (the "Service"). Please read this agreement before you register, sign in or use the Service. By using the Service you confirm that you have read and accept all of it.</p>
<h3>1. Accounts</h3>
<p>1. Register with true and accurate information and keep your account and password safe. Losses caused by careless keeping are your own.</p>
<p>2. The administrator of an organisation (tenant) may create, disable or delete its members' accounts and assign their roles and permissions.</p>
<p>3. Accounts registered through a third party can be used only after an administrator approves them.</p>
<h3>2. Devices and services</h3>
<p>1. Use the Service only for devices you are entitled to manage, never for other people's devices or for any unlawful purpose.</p>
<p>2. Firmware upgrades (OTA), remote unlocking and authorisations are recorded for traceability and security audits.</p>
<p>3. Devices must be activated and used inside the sales region they were dispatched to; activation elsewhere raises a region warning.</p>
<h3>3. Cloud storage and paid services</h3>
<p>Cloud storage and other paid services are provided for the term and price of the order. When a term ends without renewal, the data is deleted after the retention period stated in the order.</p>
<h3>4. Forbidden conduct</h3>
<p>Do not try to bypass access control, reach other tenants' data, disturb the system, or reverse-engineer the Service.</p>
<h3>5. Limitation of liability</h3>
<p>To the extent the law allows, the platform is not liable for interruptions or data loss caused by force majeure, network operators or your own actions.</p>
<h3>6. Changes</h3>
<p>When this agreement changes, the new version and its effective date are published on this page. Continuing to use the Service means accepting the updated agreement.</p>`,
  },
  {
    type: 'privacy', language: 'zh', title: '隐私政策',
    content: `<h2>隐私政策</h2>
<p>我们重视您的个人信息和隐私保护。本政策说明我们收集哪些信息、如何使用和保护这些信息, 以及您享有的权利。</p>
<h3>一、我们收集的信息</h3>
<p>1. 账号信息: 账号、姓名、手机号码、邮箱、头像。</p>
<p>2. 设备信息: 设备序列号、型号、固件版本、激活地区、运行与告警日志。</p>
<p>3. 操作记录: 登录时间与 IP 地址、重要操作的审计日志。</p>
<h3>二、信息的使用</h3>
<p>我们仅将上述信息用于提供和改进服务、保障账号与设备安全、处理售后与投诉, 以及履行法律义务。</p>
<h3>三、信息的共享</h3>
<p>除法律法规要求或取得您的同意外, 我们不会向第三方提供您的个人信息。不同企业(租户)之间的数据相互隔离。</p>
<h3>四、信息的存储与安全</h3>
<p>密码以不可逆的方式加密保存; 密钥等敏感配置加密存储, 不会以明文返回。我们采取访问控制、日志审计等措施保护您的信息。</p>
<h3>五、您的权利</h3>
<p>您可以在"个人信息"页面查看和更正您的资料, 修改密码; 如需注销账号或导出数据, 请联系您所在企业的管理员。</p>
<h3>六、政策更新</h3>
<p>本政策更新时, 我们将在本页面公布新版本及生效时间。</p>`,
  },
  {
    type: 'privacy', language: 'en', title: 'Privacy Policy',
    content: `<h2>Privacy Policy</h2>
<p>We take the protection of your personal information seriously. This policy explains what we collect, how we use and protect it, and your rights.</p>
<h3>1. What we collect</h3>
<p>1. Account data: account, name, phone number, email address, avatar.</p>
<p>2. Device data: serial number, model, firmware version, activation region, operation and alarm logs.</p>
<p>3. Activity records: sign-in times and IP addresses, audit logs of significant operations.</p>
<h3>2. How we use it</h3>
<p>Only to provide and improve the Service, to keep accounts and devices secure, to handle after-sales service and complaints, and to meet legal obligations.</p>
<h3>3. Sharing</h3>
<p>We do not give your personal information to third parties unless the law requires it or you agree. The data of different organisations (tenants) is kept apart.</p>
<h3>4. Storage and security</h3>
<p>Passwords are stored with a one-way hash; keys and other secrets are stored encrypted and never returned in clear. Access control and audit logs protect your information.</p>
<h3>5. Your rights</h3>
<p>You can view and correct your details and change your password on the "Personal info" page. To close your account or export your data, contact your organisation's administrator.</p>
<h3>6. Changes</h3>
<p>When this policy changes, the new version and its effective date are published on this page.</p>`,
  },
];
