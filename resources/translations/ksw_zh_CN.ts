<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
  <context>
    <name>Build</name>
    <message>
      <location filename="../../app/pages/build.py" line="114" />
      <source>  What to do: {fix}</source>
      <translation>  怎么办：{fix}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="113" />
      <source>  Why: {cause}</source>
      <translation>  原因：{cause}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="131" />
      <source>Attempt {attempt}</source>
      <translation>第 {attempt} 次尝试</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="92" />
      <source>Building {name}…</source>
      <translation>正在编译 {name}…</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="134" />
      <source>Cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <source>Cancelled after %v / %m steps</source>
      <translation type="obsolete">已取消（%v / %m 步）</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="136" />
      <source>Cancelled: %v of %m units compiled</source>
      <translation>已取消：已编译 %v / %m 个单元</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="91" />
      <source>Click “Build again” to start it over, or Back to choose something else.</source>
      <translation>点击“重新编译”重新开始，或点击“上一步”选择其他内容。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="76" />
      <source>Compiling one file at a time: this computer's processor and memory allow no more. The details are under “What will run”.</source>
      <translation>每次编译一个文件：这台电脑的处理器和内存只允许这么多。详细信息见“将要运行的命令”。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="78" />
      <source>Compiling {jobs} files at a time: as many as this computer's processor and memory allow. The details are under “What will run”.</source>
      <translation>每次同时编译 {jobs} 个文件：这是这台电脑的处理器和内存允许的最大数量。详细信息见“将要运行的命令”。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="133" />
      <source>Done</source>
      <translation>完成</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="132" />
      <source>Failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>Failed after %v / %m steps</source>
      <translation type="obsolete">失败（%v / %m 步）</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="135" />
      <source>Failed: %v of %m units compiled</source>
      <translation>失败：已编译 %v / %m 个单元</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="116" />
      <source>First error (line {line}):</source>
      <translation>第一个错误（第 {line} 行）：</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="124" />
      <source>Full log: {path}</source>
      <translation>完整日志：{path}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="84" />
      <source>Keep building</source>
      <translation>继续编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="111" />
      <source>Log: {path}</source>
      <translation>日志：{path}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="128" />
      <source>No output for {quiet}. Still running: {running}. Large kernels can compile for many minutes without printing.</source>
      <translation>已经 {quiet} 没有输出。仍在运行：{running}。大型内核可能编译好几分钟都不输出任何内容。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="137" />
      <source>Report bundle saved: {bundle} — attach it to your bug report.</source>
      <translation>报告包已保存：{bundle} — 请把它附在你的问题报告中。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="125" />
      <source>See the log: {path}</source>
      <translation>请查看日志：{path}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="110" />
      <source>Slowest to compile: {units}</source>
      <translation>编译最慢的：{units}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="139" />
      <source>State</source>
      <translation>状态</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="138" />
      <source>Step</source>
      <translation>步骤</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="89" />
      <source>Stop and close</source>
      <translation>停止并关闭</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="83" />
      <source>Stop the build</source>
      <translation>停止编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="85" />
      <source>Stop the build and close the wizard?</source>
      <translation>停止编译并关闭向导？</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="81" />
      <source>Stop the build now? Everything compiled so far is discarded. Nothing has been installed, so your Python environment stays as it is.</source>
      <translation>现在停止编译吗？已编译的部分会被丢弃。还没有安装任何东西，你的 Python 环境保持不变。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="80" />
      <source>Stop the build?</source>
      <translation>停止编译？</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="117" />
      <source>Stopped while {family}: {next_step}</source>
      <translation>出错阶段：{family}。{next_step}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="86" />
      <source>The build is still running. Stop it and close the wizard? Everything compiled so far is discarded. Nothing has been installed, so your Python environment stays as it is.</source>
      <translation>编译仍在进行。要停止编译并关闭向导吗？已编译的部分会被丢弃。还没有安装任何东西，你的 Python 环境保持不变。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="90" />
      <source>The build was cancelled; nothing was installed.</source>
      <translation>编译已取消，没有安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="121" />
      <source>The cause is not one the wizard knows; it stopped while {family}: that usually means {usually}. Save the report bundle (the button above) and attach it when you ask for help.</source>
      <translation>这个原因不在向导已知的范围内；出错阶段：{family}，这通常意味着{usually}。请保存报告包（上面的按钮），求助时附上它。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="96" />
      <source>The exact commands appear once the source is ready.</source>
      <translation>源码准备好后，这里会显示确切的命令。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="118" />
      <source>The wizard does not know this cause. The lines above are where the build failed; save the report bundle (the button above) and attach it when you ask for help.</source>
      <translation>向导不认识这个原因。上面几行是构建失败的位置；请保存报告包（上方的按钮），求助时附上它。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="140" />
      <source>Time</source>
      <translation>用时</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="127" />
      <source>What to do: {hint}</source>
      <translation>怎么办：{hint}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="95" />
      <source>Wheel: {file}</source>
      <translation>wheel 文件：{file}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="126" />
      <source>Why: {why}</source>
      <translation>原因：{why}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="105" />
      <source>extension {run}</source>
      <translation>第 {run} 个扩展</translation>
    </message>
    <message>
      <source>extension {run} · %v / %m units</source>
      <translation type="obsolete">第 {run} 个扩展 · %v / %m 个编译单元</translation>
    </message>
    <message>
      <source>extension {run} · %v / %m units so far</source>
      <translation type="obsolete">第 {run} 个扩展 · 目前 %v / %m 个编译单元</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="106" />
      <source>extension {run} · {done} / {total} units</source>
      <translation>第 {run} 个扩展 · {done} / {total} 个编译单元</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="107" />
      <source>extension {run} · {done} / {total} units so far</source>
      <translation>第 {run} 个扩展 · 目前 {done} / {total} 个编译单元</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="130" />
      <source>no compiler process found</source>
      <translation>没有找到编译器进程</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="103" />
      <source>packaging</source>
      <translation>打包中</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="102" />
      <source>preparing</source>
      <translation>准备中</translation>
    </message>
    <message>
      <source>the probe kernel</source>
      <translation type="obsolete">探测内核</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="109" />
      <source>took {duration}</source>
      <translation>用时 {duration}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="100" />
      <source>{done} / {total} units</source>
      <translation>{done} / {total} 个编译单元</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="101" />
      <source>{done} / {total} {unit}</source>
      <translation>{done} / {total} {unit}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="108" />
      <source>{duration} elapsed</source>
      <translation>已用时 {duration}</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="93" />
      <source>{name} is built and ready to be verified.</source>
      <translation>{name} 已编译完成，可以进行验证。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="94" />
      <source>{name}: the prebuilt wheel is downloaded and ready to be verified.</source>
      <translation>{name}：预编译的 wheel 已下载，可以进行验证。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="115" />
      <source>○ {title} (line {line})</source>
      <translation>○ {title}（第 {line} 行）</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="112" />
      <source>● {title} (line {line})</source>
      <translation>● {title}（第 {line} 行）</translation>
    </message>
  </context>
  <context>
    <name>CheckRow</name>
    <message>
      <location filename="../../app/widgets/check_row.py" line="59" />
      <source>&lt;b&gt;Fix:&lt;/b&gt; {title}</source>
      <translation>&lt;b&gt;修复：&lt;/b&gt;{title}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="60" />
      <source>&lt;b&gt;Fix:&lt;/b&gt; {title} (asks for administrator rights)</source>
      <translation>&lt;b&gt;修复：&lt;/b&gt;{title}（需要管理员权限）</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="57" />
      <source>&lt;b&gt;Needed for {kernels}&lt;/b&gt; — the probe kernel can be built without it.</source>
      <translation>&lt;b&gt;{kernels} 需要它&lt;/b&gt; — 没有它也能编译探测内核。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="61" />
      <source>&lt;b&gt;What to do:&lt;/b&gt; {hint}</source>
      <translation>&lt;b&gt;怎么做：&lt;/b&gt;{hint}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="64" />
      <source>&lt;b&gt;{title}:&lt;/b&gt; run this in a terminal (they need administrator rights), then click Re-check. The wizard does not run it for you.</source>
      <translation>&lt;b&gt;{title}：&lt;/b&gt;请在终端中运行下面的命令（需要管理员权限），然后点击“重新检查”。向导不会替你运行它。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="62" />
      <source>&lt;b&gt;{title}:&lt;/b&gt; run this in a terminal, then click Re-check. The wizard does not run it for you.</source>
      <translation>&lt;b&gt;{title}：&lt;/b&gt;请在终端中运行下面的命令，然后点击“重新检查”。向导不会替你运行它。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="54" />
      <source>Blocks the build</source>
      <translation>会阻止编译</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="55" />
      <source>Does not block the build</source>
      <translation>不会阻止编译</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="56" />
      <source>Does not block the build; needed for {kernels}</source>
      <translation>不会阻止编译；{kernels} 需要它</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="73" />
      <source>Full log: {path}</source>
      <translation>完整日志：{path}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="72" />
      <source>Restart needed: {message}</source>
      <translation>需要重启：{message}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="70" />
      <source>Running the fix…</source>
      <translation>正在运行修复…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="69" />
      <source>Running: {title}…</source>
      <translation>正在运行：{title}…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="71" />
      <source>Stopping the fix…</source>
      <translation>正在停止修复…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="68" />
      <source>The commands: {description}</source>
      <translation>这些命令：{description}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="74" />
      <source>The fix stopped unexpectedly: {error}</source>
      <translation>修复意外停止：{error}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="67" />
      <source>The fix: {description}</source>
      <translation>修复内容：{description}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="66" />
      <source>What to do: {hint}</source>
      <translation>怎么做：{hint}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="58" />
      <source>{title}. Windows will ask for administrator rights for this step only.</source>
      <translation>{title}。只有这一步 Windows 会请求管理员权限。</translation>
    </message>
  </context>
  <context>
    <name>Done</name>
    <message>
      <location filename="../../app/pages/done.py" line="105" />
      <source>&lt;p&gt;&lt;a href="{url}"&gt;{app}'s documentation&lt;/a&gt;. The wizard changed nothing in {app}: you decide whether to set this.&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;a href="{url}"&gt;{app} 的文档&lt;/a&gt;。向导没有修改 {app} 中的任何内容：是否这样设置由你决定。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="55" />
      <source>&lt;p&gt;&lt;b&gt;Installed {kernel}&lt;/b&gt; (the Python package {package} {version}) into &lt;code&gt;{python}&lt;/code&gt;.&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;b&gt;已安装 {kernel}&lt;/b&gt;（Python 包 {package} {version}），安装到 &lt;code&gt;{python}&lt;/code&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
      <source>&lt;p&gt;&lt;b&gt;Installed {name} {version}&lt;/b&gt; into &lt;code&gt;{python}&lt;/code&gt;.&lt;/p&gt;</source>
      <translation type="obsolete">&lt;p&gt;&lt;b&gt;已将 {name} {version} 安装&lt;/b&gt;到 &lt;code&gt;{python}&lt;/code&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="103" />
      <source>&lt;p&gt;&lt;b&gt;{app}&lt;/b&gt;: {how}&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;b&gt;{app}&lt;/b&gt;：{how}&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="78" />
      <source>&lt;p&gt;All logs: &lt;code&gt;{logs}&lt;/code&gt;&lt;br&gt;All reports: &lt;code&gt;{reports}&lt;/code&gt;&lt;br&gt;Install records: &lt;code&gt;{installs}&lt;/code&gt;&lt;/p&gt;</source>
      <translation>&lt;p&gt;所有日志：&lt;code&gt;{logs}&lt;/code&gt;&lt;br&gt;所有报告：&lt;code&gt;{reports}&lt;/code&gt;&lt;br&gt;安装记录：&lt;code&gt;{installs}&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="76" />
      <source>&lt;p&gt;Build log: &lt;code&gt;{log}&lt;/code&gt;&lt;br&gt;All logs: &lt;code&gt;{logs}&lt;/code&gt;&lt;br&gt;All reports: &lt;code&gt;{reports}&lt;/code&gt;&lt;br&gt;Install records: &lt;code&gt;{installs}&lt;/code&gt;&lt;/p&gt;</source>
      <translation>&lt;p&gt;编译日志：&lt;code&gt;{log}&lt;/code&gt;&lt;br&gt;所有日志：&lt;code&gt;{logs}&lt;/code&gt;&lt;br&gt;所有报告：&lt;code&gt;{reports}&lt;/code&gt;&lt;br&gt;安装记录：&lt;code&gt;{installs}&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="57" />
      <source>&lt;p&gt;It replaced {name} {version}, kept in &lt;code&gt;{folder}&lt;/code&gt; so that it can be restored.&lt;/p&gt;</source>
      <translation>&lt;p&gt;它替换了 {name} {version}，旧版本保存在 &lt;code&gt;{folder}&lt;/code&gt;，可以恢复。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="60" />
      <source>&lt;p&gt;Its verification did &lt;b&gt;not&lt;/b&gt; pass: it was installed because you chose to.&lt;/p&gt;</source>
      <translation>&lt;p&gt;它&lt;b&gt;没有&lt;/b&gt;通过验证：是按你的选择安装的。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="59" />
      <source>&lt;p&gt;Its verification passed.&lt;/p&gt;</source>
      <translation>&lt;p&gt;它通过了验证。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="65" />
      <source>&lt;p&gt;Nothing was installed, as you chose: the kernel passed its verification, and your Python environment &lt;code&gt;{python}&lt;/code&gt; is unchanged.&lt;/p&gt;&lt;p&gt;To install it later, open this wizard again and build the same kernel for the same Python (the second build is quicker), then click “Install into …” after its checks have passed.&lt;/p&gt;</source>
      <translation>&lt;p&gt;按你的选择，没有安装任何东西：内核通过了验证，你的 Python 环境 &lt;code&gt;{python}&lt;/code&gt; 没有改动。&lt;/p&gt;&lt;p&gt;以后要安装它，请再次打开本向导，为同一个 Python 编译同一个内核（第二次编译更快），在检查通过后点击“安装到 …”。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="64" />
      <source>&lt;p&gt;Nothing was installed. Your Python environment is as it was.&lt;/p&gt;</source>
      <translation>&lt;p&gt;没有安装任何东西。你的 Python 环境保持原样。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="62" />
      <source>&lt;p&gt;The installed kernels were checked again; the Verify step showed the results.&lt;/p&gt;</source>
      <translation>&lt;p&gt;已重新检查已安装的内核；结果显示在“验证”步骤中。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="104" />
      <source>&lt;p&gt;To see that it is: {check}&lt;/p&gt;</source>
      <translation>&lt;p&gt;确认方法：{check}&lt;/p&gt;</translation>
    </message>
    <message>
      <source>After you update the NVIDIA driver or PyTorch, check that the kernel still works: open this wizard again and choose “Check the installed kernels again” on its first page. It compares the results with today's and names anything that changed. (From a terminal: python -m app --verify)</source>
      <translation type="obsolete">更新 NVIDIA 驱动或 PyTorch 之后，请检查内核是否仍然可用：再次打开本向导，在第一页选择“重新检查已安装的内核”。它会把结果与今天的结果比较，并指出任何变化。（在终端中：python -m app --verify）</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="90" />
      <source>After you update the NVIDIA driver or PyTorch, check that the kernel still works: open this wizard again and choose “Check the installed kernels again” on its first page. It compares the results with today's and names anything that changed. (From a terminal: {command})</source>
      <translation>更新 NVIDIA 驱动或 PyTorch 之后，请检查内核是否仍然可用：再次打开本向导，在第一页选择“重新检查已安装的内核”。它会把结果与今天的结果比较，并指出任何变化。（在终端中：{command}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="108" />
      <source>Builds leave their folders and downloaded sources behind, so that a second build is quicker. They can take several GB; the kernel you installed does not need them.</source>
      <translation>编译会留下它们的文件夹和下载的源码，以便下次编译更快。它们可能占用几 GB；已安装的内核不需要它们。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="95" />
      <source>Check the GPU kernels the Kernel Setup Wizard installed, e.g. after a driver or PyTorch update</source>
      <translation>检查内核安装向导安装的 GPU 内核，例如在更新驱动或 PyTorch 之后</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="89" />
      <source>Checking again later</source>
      <translation>以后再次检查</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="88" />
      <source>Copied</source>
      <translation>已复制</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="87" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="97" />
      <source>Create a “{name}” shortcut</source>
      <translation>创建“{name}”快捷方式</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="107" />
      <source>Disk space</source>
      <translation>磁盘空间</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="47" />
      <source>Done</source>
      <translation>完成</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="80" />
      <source>Files</source>
      <translation>文件</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="86" />
      <source>In the Python it was installed into:</source>
      <translation>在安装了它的 Python 中：</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="102" />
      <source>Is it actually used?</source>
      <translation>它真的会被使用吗？</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="54" />
      <source>Nothing was installed</source>
      <translation>没有安装任何东西</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="50" />
      <source>Nothing was installed.</source>
      <translation>没有安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="83" />
      <source>Open the folder</source>
      <translation>打开文件夹</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="82" />
      <source>Open the report</source>
      <translation>打开报告</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="98" />
      <source>Puts a shortcut in the applications menu and on the desktop that opens this wizard straight at the check.</source>
      <translation>在应用程序菜单和桌面上放一个快捷方式，直接打开向导的检查步骤。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="94" />
      <source>Re-verify GPU kernels</source>
      <translation>重新验证 GPU 内核</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="100" />
      <source>Shortcut created.</source>
      <translation>快捷方式已创建。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="84" />
      <source>The folder with the reports and logs: {folder}</source>
      <translation>报告和日志所在的文件夹：{folder}</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="49" />
      <source>The installed kernels were checked again.</source>
      <translation>已重新检查已安装的内核。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="48" />
      <source>The kernel is installed.</source>
      <translation>内核已安装。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="101" />
      <source>The shortcut could not be created.</source>
      <translation>无法创建快捷方式。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="85" />
      <source>Use it in your code</source>
      <translation>在代码中使用它</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="71" />
      <source>What was checked</source>
      <translation>检查了什么</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="70" />
      <source>What was installed</source>
      <translation>安装了什么</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="81" />
      <source>Where the files are</source>
      <translation>文件在哪里</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="75" />
      <source>Your Python environment</source>
      <translation>你的 Python 环境</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="72" />
      <source>{passed} of {count} checks passed. Each compares the kernel's results with PyTorch's, forward and backward; the share is of the error PyTorch itself is allowed.</source>
      <translation>{count} 项检查中有 {passed} 项通过。每一项都把内核的结果与 PyTorch 的结果比较（前向和反向）；百分比是相对于 PyTorch 自身允许的误差而言的。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="52" />
      <source>⚠ {kernel} is installed, although its verification failed</source>
      <translation>⚠ {kernel} 已安装，但它没有通过验证</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="53" />
      <source>✔ The installed kernels were checked again</source>
      <translation>✔ 已重新检查已安装的内核</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="51" />
      <source>✔ {kernel} is installed and ready to use</source>
      <translation>✔ {kernel} 已安装，可以使用了</translation>
    </message>
  </context>
  <context>
    <name>ErrorChart</name>
    <message>
      <location filename="../../app/widgets/error_chart.py" line="24" />
      <source>allowed</source>
      <translation>允许值</translation>
    </message>
    <message>
      <location filename="../../app/widgets/error_chart.py" line="23" />
      <source>largest error, as a share of the allowed error (log scale)</source>
      <translation>最大误差占允许误差的比例（对数刻度）</translation>
    </message>
    <message>
      <location filename="../../app/widgets/error_chart.py" line="26" />
      <source>no number (NaN/inf or missing)</source>
      <translation>没有数值（NaN/inf 或缺失）</translation>
    </message>
    <message>
      <location filename="../../app/widgets/error_chart.py" line="27" />
      <source>ok</source>
      <translation>正常</translation>
    </message>
    <message>
      <location filename="../../app/widgets/error_chart.py" line="25" />
      <source>speed compared with PyTorch's built-in attention (right of 1× is faster)</source>
      <translation>与 PyTorch 内置注意力相比的速度（1× 右侧表示更快）</translation>
    </message>
  </context>
  <context>
    <name>ExplainLog</name>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="44" />
      <source>Cause: {cause}</source>
      <translation>原因：{cause}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="39" />
      <source>Choose a log file to explain</source>
      <translation>选择要解释的日志文件</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="34" />
      <source>Explain a log</source>
      <translation>解释日志</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="35" />
      <source>Explain a log…</source>
      <translation>解释日志…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="42" />
      <source>First error (line {number}), as the log shows it:</source>
      <translation>第一个错误（第 {number} 行），与日志中原文一致：</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="41" />
      <source>Log: {name} ({lines} lines)</source>
      <translation>日志：{name}（{lines} 行）</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="40" />
      <source>Logs and text (*.log *.txt *.out);;All files (*)</source>
      <translation>日志和文本 (*.log *.txt *.out);;所有文件 (*)</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="45" />
      <source>Next step:</source>
      <translation>下一步：</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="36" />
      <source>Read a saved log of a build, install or import that failed (also one from outside the wizard, such as a pip install in a terminal or a ComfyUI node that did not load) and say where it stopped and what to do.</source>
      <translation>读取一份失败的构建、安装或导入的日志（也可以来自向导之外，例如在终端里用 pip 安装时失败，或未能加载的 ComfyUI 节点），说明它停在哪一步以及下一步该怎么做。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="46" />
      <source>Search for this error in {repo}'s issues</source>
      <translation>在 {repo} 的 issues 中搜索此错误</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="47" />
      <source>Search for this error on GitHub</source>
      <translation>在 GitHub 上搜索此错误</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="43" />
      <source>Stopped while {family}.</source>
      <translation>停止于：{family}。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/explain_dialog.py" line="48" />
      <source>The log could not be read: {error}</source>
      <translation>无法读取该日志：{error}</translation>
    </message>
  </context>
  <context>
    <name>FreeSpace</name>
    <message>
      <location filename="../../app/widgets/free_space.py" line="34" />
      <source>Free space</source>
      <translation>释放空间</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="29" />
      <source>Free space…</source>
      <translation>释放空间…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="42" />
      <source>Freed {size}.</source>
      <translation>已释放 {size}。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="41" />
      <source>Freed {size}; {count} item(s) could not be removed.</source>
      <translation>已释放 {size}；有 {count} 项无法删除。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="39" />
      <source>Installed kernels, their backups and the verification reports are kept. A later build downloads and compiles again.</source>
      <translation>已安装的内核、它们的备份和验证报告会保留。以后的编译会重新下载和编译。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="32" />
      <source>Measuring…</source>
      <translation>正在计算…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="35" />
      <source>Nothing to remove: there are no old builds or downloaded sources.</source>
      <translation>没有可删除的东西：没有旧的编译结果或下载的源码。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="38" />
      <source>Old builds and downloaded sources take {size}. Remove them?</source>
      <translation>旧的编译结果和下载的源码占用 {size}。要删除它们吗？</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="30" />
      <source>Remove old builds and downloaded sources that nothing uses any more (installed kernels, their backups and reports are kept).</source>
      <translation>删除不再使用的旧编译结果和下载的源码（已安装的内核、它们的备份和报告会保留）。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="33" />
      <source>Removing…</source>
      <translation>正在删除…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="43" />
      <source>The old builds could not be measured or removed.</source>
      <translation>无法计算或删除旧的编译结果。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="37" />
      <source>• and {count} more</source>
      <translation>• 还有 {count} 项</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="36" />
      <source>• {size} — {kind}: {name}</source>
      <translation>• {size} — {kind}：{name}</translation>
    </message>
  </context>
  <context>
    <name>Hardware</name>
    <message>
      <location filename="../../app/pages/hardware.py" line="102" />
      <source>, the C++ library's newer string layout (C++11 ABI)</source>
      <translation>，C++ 库较新的字符串布局（C++11 ABI）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="103" />
      <source>, the C++ library's older string layout (pre-C++11 ABI)</source>
      <translation>，C++ 库较旧的字符串布局（C++11 之前的 ABI）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="108" />
      <source>ARM processors</source>
      <translation>ARM 处理器</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="77" />
      <source>Add a folder…</source>
      <translation>添加文件夹…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="79" />
      <source>An AI program installed somewhere else: choose its folder (where it was unpacked or cloned) and its Python is found by the program's own layout</source>
      <translation>安装在其他位置的 AI 程序：选择它的文件夹（解压或克隆到的地方），向导会按该程序自己的目录结构找到它的 Python</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="68" />
      <source>CPU: {cores} cores</source>
      <translation>CPU：{cores} 个核心</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="69" />
      <source>CPU: {cores} cores ({physical} physical)</source>
      <translation>CPU：{cores} 个核心（{physical} 个物理核心）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="51" />
      <source>Choose the Python program of the environment</source>
      <translation>选择该环境的 Python 程序</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="81" />
      <source>Choose the folder of an AI program</source>
      <translation>选择 AI 程序的文件夹</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="83" />
      <source>Choose the program's own folder (where it was unpacked or cloned, e.g. ComfyUI_windows_portable), or its python executable with Browse…</source>
      <translation>请选择程序自己的文件夹（解压或克隆到的地方，例如 ComfyUI_windows_portable），或者用“浏览…”选择它的 python 可执行文件</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="88" />
      <source>Detecting GPUs and Python environments…</source>
      <translation>正在检测 GPU 和 Python 环境…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="50" />
      <source>Disk: {free} free for builds (in {folder})</source>
      <translation>磁盘：{free} 可用于编译（位于 {folder}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="71" />
      <source>Found the Python of {apps}. Choose the program you want the kernel in: it goes into that program's own Python.</source>
      <translation>找到了以下程序的 Python：{apps}。请选择要安装内核的程序：内核会装进该程序自己的 Python。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="73" />
      <source>Found the Python of {app} and selected it: the kernel goes into that program's own Python. Nothing is installed until you confirm it at the end; choose another Python here if you like.</source>
      <translation>找到了 {app} 的 Python 并已选中它：内核会装进这个程序自己的 Python。在最后确认之前不会安装任何东西；如果愿意，可以在这里选择另一个 Python。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="67" />
      <source>GPU links: {links}</source>
      <translation>GPU 互连：{links}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="87" />
      <source>Inspecting the Python environment…</source>
      <translation>正在检查 Python 环境…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="86" />
      <source>Inspecting {path} …</source>
      <translation>正在检查 {path} …</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="54" />
      <source>Install pip</source>
      <translation>安装 pip</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="57" />
      <source>Install pip?</source>
      <translation>安装 pip？</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="56" />
      <source>Installing pip into {python}…</source>
      <translation>正在把 pip 安装到 {python}…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="104" />
      <source>Linux</source>
      <translation>Linux</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="78" />
      <source>Looking for an AI program's Python in {folder}…</source>
      <translation>正在 {folder} 中查找 AI 程序的 Python…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="66" />
      <source>NVIDIA driver {version} — it did not say which CUDA versions it supports</source>
      <translation>NVIDIA 驱动 {version} — 它没有说明支持哪些 CUDA 版本</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="65" />
      <source>NVIDIA driver {version} — supports CUDA up to {cuda}</source>
      <translation>NVIDIA 驱动 {version} — 最高支持 CUDA {cuda}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="82" />
      <source>No Python of an AI program was found in {folder}.</source>
      <translation>在 {folder} 中没有找到 AI 程序的 Python。</translation>
    </message>
    <message>
      <source>Not every folder was searched. {limit}</source>
      <translation type="obsolete">并非所有文件夹都已查找。{limit}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="60" />
      <source>Not now</source>
      <translation>暂不</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="63" />
      <source>OK</source>
      <translation>正常</translation>
    </message>
    <message>
      <source>PyTorch {version} · CUDA {cuda} · architectures: {archs} · C++11 ABI: {abi}</source>
      <translation type="obsolete">PyTorch {version} · CUDA {cuda} · 架构：{archs} · C++11 ABI：{abi}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="93" />
      <source>PyTorch {version} · {cuda} · {gpus}</source>
      <translation>PyTorch {version} · {cuda} · {gpus}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="53" />
      <source>Python programs (python python3 python3.*);;All files (*)</source>
      <translation>Python 程序 (python python3 python3.*);;所有文件 (*)</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="52" />
      <source>Python programs (python.exe pythonw.exe);;All files (*)</source>
      <translation>Python 程序 (python.exe pythonw.exe);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Python {version}, {bits}-bit ({interpreter}, {platform}) · pip {pip} · ninja {ninja}</source>
      <translation type="obsolete">Python {version}，{bits} 位（{interpreter}，{platform}）· pip {pip} · ninja {ninja}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="89" />
      <source>Python {version}, {bits}-bit, for {platform} · pip (the package installer) {pip} · ninja (compiles many files at once) {ninja}</source>
      <translation>Python {version}，{bits} 位，适用于 {platform} · pip（包安装工具）{pip} · ninja（同时编译多个文件）{ninja}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="55" />
      <source>Python's own installer of pip (ensurepip); nothing is downloaded</source>
      <translation>使用 Python 自带的 pip 安装器（ensurepip）；无需下载</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="70" />
      <source>RAM: {available} available of {total}</source>
      <translation>内存：共 {total}，可用 {available}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="100" />
      <source>What a prebuilt wheel for this Python must be made for: Python tag {interpreter}, platform {platform}{abi}.</source>
      <translation>适用于这个 Python 的预编译 wheel 必须符合：Python 标签 {interpreter}，平台 {platform}{abi}。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="105" />
      <source>Windows</source>
      <translation>Windows</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="95" />
      <source>a CPU-only build (no CUDA)</source>
      <translation>仅 CPU 版本（没有 CUDA）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="94" />
      <source>built for CUDA {cuda}</source>
      <translation>为 CUDA {cuda} 构建</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="92" />
      <source>found</source>
      <translation>已找到</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="96" />
      <source>has GPU code for compute capability {ccs}</source>
      <translation>含有计算能力 {ccs} 的 GPU 代码</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="97" />
      <source>has GPU code for compute capability {ccs}, and code newer GPUs can compile when first used</source>
      <translation>含有计算能力 {ccs} 的 GPU 代码，以及更新的 GPU 首次使用时可以即时编译的代码</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="106" />
      <source>macOS</source>
      <translation>macOS</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="91" />
      <source>missing</source>
      <translation>缺失</translation>
    </message>
    <message>
      <source>no</source>
      <translation type="obsolete">否</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="99" />
      <source>no GPU code</source>
      <translation>没有 GPU 代码</translation>
    </message>
    <message>
      <source>none</source>
      <translation type="obsolete">无</translation>
    </message>
    <message>
      <source>none (CPU build)</source>
      <translation type="obsolete">无（CPU 版本）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="109" />
      <source>the platform {tag}</source>
      <translation>平台 {tag}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="62" />
      <source>unknown</source>
      <translation>未知</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="107" />
      <source>x86-64 processors</source>
      <translation>x86-64 处理器</translation>
    </message>
    <message>
      <source>yes</source>
      <translation type="obsolete">是</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="64" />
      <source>{cc} (sm_{sm})</source>
      <translation>{cc}（sm_{sm}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="61" />
      <source>{count} GPU(s) did not answer every question; see Status.</source>
      <translation>有 {count} 个 GPU 未能回答全部查询；请查看“状态”一栏。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="58" />
      <source>{description}

This will run:
    {command}</source>
      <translation>{description}

将要运行：
    {command}</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="76" />
      <source>{item}  (cannot start)</source>
      <translation>{item}  （无法启动）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="85" />
      <source>{path}  ({origin})</source>
      <translation>{path}  （{origin}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="110" />
      <source>{system} on {arch}</source>
      <translation>{arch}上的 {system}</translation>
    </message>
  </context>
  <context>
    <name>KernelNames</name>
    <message>
      <location filename="../../app/i18n.py" line="104" />
      <source>1.0.0 (main, 2026-04-29)</source>
      <translation>1.0.0（主分支，2026-04-29）</translation>
    </message>
    <message>
      <location filename="../../app/i18n.py" line="105" />
      <source>Dao-AILab/flash-attention releases</source>
      <translation>Dao-AILab/flash-attention 的发布页</translation>
    </message>
    <message>
      <location filename="../../app/i18n.py" line="101" />
      <source>Probe kernel</source>
      <translation>探测内核</translation>
    </message>
    <message>
      <location filename="../../app/i18n.py" line="102" />
      <source>V1 (legacy Buffer API, 2026-02-03)</source>
      <translation>V1（旧版 deep_ep.Buffer 接口，2026-02-03）</translation>
    </message>
    <message>
      <location filename="../../app/i18n.py" line="103" />
      <source>V2 (main, 2026-07-14)</source>
      <translation>V2（主分支，2026-07-14）</translation>
    </message>
  </context>
  <context>
    <name>KernelPage</name>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="31" />
      <source> (the union of the selected GPUs)</source>
      <translation>（所选 GPU 架构的合集）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="60" />
      <source>&lt;b&gt;Use WSL2:&lt;/b&gt; this kernel builds in WSL2 on this PC (see “Use WSL2…”).</source>
      <translation>&lt;b&gt;使用 WSL2：&lt;/b&gt;这个内核可以在这台电脑的 WSL2 中编译（见“使用 WSL2…”）。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="58" />
      <source>A matching prebuilt wheel exists (about {time})</source>
      <translation>有匹配的预编译 wheel（约 {time}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="59" />
      <source>A matching prebuilt wheel may exist (about {time})</source>
      <translation>可能有匹配的预编译 wheel（约 {time}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="62" />
      <source>Build from source (est. {time})</source>
      <translation>从源码编译（预计 {time}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="55" />
      <source>Build from source instead</source>
      <translation>改为从源码编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="61" />
      <source>Build variants (choose one under “How to get it”):</source>
      <translation>构建方式（在“获取方式”中选择）：</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="68" />
      <source>Build:</source>
      <translation>构建：</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="39" />
      <source>CUDA toolkit {version} ({root})</source>
      <translation>CUDA 工具包 {version}（{root}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="41" />
      <source>CUDA toolkit: none found</source>
      <translation>CUDA 工具包：未找到</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="40" />
      <source>CUDA toolkit: search failed ({error})</source>
      <translation>CUDA 工具包：查找失败（{error}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="64" />
      <source>Choose the folder or archive (.tar.gz, .zip) with the source: Folder… or Archive…</source>
      <translation>请选择包含源码的文件夹或压缩包（.tar.gz、.zip）：点击“文件夹…”或“压缩包…”</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="67" />
      <source>Choose the folder with the kernel's source</source>
      <translation>选择包含内核源码的文件夹</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="63" />
      <source>Chosen: {path}</source>
      <translation>已选择：{path}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="56" />
      <source>Compile it again from its source, as if it had never been built here (the cached wheel is left as it is).</source>
      <translation>从源码重新编译，就像此前从未在这里编译过一样（缓存中的 wheel 保持不变）。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="28" />
      <source>Fix it on the Prerequisites page…</source>
      <translation>在“前置条件”页面修复…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="60" />
      <source>From {source}</source>
      <translation>来自 {source}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="61" />
      <source>From {source}. {note}</source>
      <translation>来自 {source}。{note}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="66" />
      <source>From {url} at {ref}</source>
      <translation>来自 {url}，版本 {ref}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="66" />
      <source>GPU {index}: {name} ({cc})</source>
      <translation>GPU {index}：{name}（{cc}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="32" />
      <source>GPU: none selected</source>
      <translation>GPU：未选择</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="33" />
      <source>GPU: none usable</source>
      <translation>GPU：没有可用的 GPU</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="29" />
      <source>GPU: {names} — builds for architecture {archs}</source>
      <translation>GPU：{names} — 为架构 {archs} 编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="30" />
      <source>GPU: {names} — builds for architectures {archs}</source>
      <translation>GPU：{names} — 为架构 {archs} 编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="50" />
      <source>How to get it</source>
      <translation>获取方式</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="53" />
      <source>It will be built for its default architectures.</source>
      <translation>将为它的默认架构编译。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="52" />
      <source>It will be built for {names}.</source>
      <translation>将为 {names} 编译。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="72" />
      <source>Judge speed for:</source>
      <translation>按此用途评估速度：</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="49" />
      <source>License: {license}</source>
      <translation>许可证：{license}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="51" />
      <source>Only its CPU part can be built here (see the warnings).</source>
      <translation>这里只能编译它的 CPU 部分（见下方警告）。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="36" />
      <source>PyTorch {version}</source>
      <translation>PyTorch {version}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="38" />
      <source>PyTorch {version} (CPU-only)</source>
      <translation>PyTorch {version}（仅 CPU 版本）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="37" />
      <source>PyTorch {version} (CUDA {cuda})</source>
      <translation>PyTorch {version}（CUDA {cuda}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="71" />
      <source>PyTorch's own attention was not timed: {reason}</source>
      <translation>未测量 PyTorch 自带注意力的速度：{reason}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="35" />
      <source>PyTorch: not installed</source>
      <translation>PyTorch：未安装</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="51" />
      <source>Ready from the verified cache (verified on {date}): installs without compiling</source>
      <translation>可从已验证缓存直接获取（验证于 {date}）：无需编译即可安装</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="65" />
      <source>Recommended: {kernel} {version}</source>
      <translation>推荐：{kernel} {version}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="70" />
      <source>Speed on this GPU: {sentence}</source>
      <translation>此 GPU 上的速度：{sentence}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="57" />
      <source>The Prerequisites page can fix this: “{button}” takes you there; come back here when it is done.</source>
      <translation>“前置条件”页面可以修复这个问题：点击“{button}”前往；修复完成后再回到这里。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="21" />
      <source>This kernel cannot be built natively on Windows for your GPU, but it builds in WSL2 (Linux inside Windows), which uses this PC's GPU.

1. Open PowerShell as administrator and run:  wsl --install -d Ubuntu
2. Restart when asked, then open Ubuntu from the Start menu and create a user.
3. Keep the NVIDIA driver of Windows: WSL2 uses it. Do not install a driver inside Ubuntu.
4. Run the Linux version of this wizard inside Ubuntu and choose this kernel there.</source>
      <translation>这个内核无法在 Windows 上直接为你的 GPU 编译，但可以在 WSL2（Windows 中的 Linux）里编译，WSL2 会使用这台电脑的 GPU。

1. 以管理员身份打开 PowerShell，运行：  wsl --install -d Ubuntu
2. 按提示重启，然后从“开始”菜单打开 Ubuntu 并创建一个用户。
3. 保留 Windows 的 NVIDIA 驱动：WSL2 会使用它。不要在 Ubuntu 里安装驱动。
4. 在 Ubuntu 中运行本向导的 Linux 版本，并在那里选择这个内核。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="52" />
      <source>This version passed the wizard's verification before with the same PyTorch build, Python and GPUs; its wheel is kept in the wizard's cache ({file}). It is verified again in this environment before it is installed.</source>
      <translation>此版本此前已在相同的 PyTorch 构建、Python 和 GPU 上通过了向导的验证；它的 wheel 保存在向导的缓存中（{file}）。安装前会在此环境中再次验证。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="68" />
      <source>Timing PyTorch's own attention on this GPU, to say which kernels pay off here (a few seconds, once per GPU and PyTorch)…</source>
      <translation>正在此 GPU 上测量 PyTorch 自带注意力的速度，以判断哪些内核值得构建（几秒钟，每个 GPU 和 PyTorch 只测一次）…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="73" />
      <source>What you run attention for: the advice compares speed at its sizes (LLM prompts: 2k-8k tokens, causal; images: 4k tokens; video: 16k-32k tokens). Chosen from the AI program found, where there is one ({why}).</source>
      <translation>你用注意力做什么：建议按该用途的尺寸比较速度（LLM 提示词：2k–8k 个 token，因果；图像：4k 个 token；视频：16k–32k 个 token）。若找到了 AI 程序，则按它选择（{why}）。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="70" />
      <source>Which parts of the library to compile. The default covers what most programs call; the full build is everything the library has, and takes much longer.</source>
      <translation>要编译库的哪些部分。默认选项涵盖大多数程序会调用的内容；完整构建包含库的全部内容，耗时长得多。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="50" />
      <source>released {date}</source>
      <translation>发布于 {date}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="67" />
      <source>unknown</source>
      <translation>未知</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="47" />
      <source>{count} broken recipe was left out ({files})</source>
      <translation>有 {count} 个损坏的配方被略过（{files}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="48" />
      <source>{count} broken recipes were left out ({files})</source>
      <translation>有 {count} 个损坏的配方被略过（{files}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="69" />
      <source>{label} (est. {time})</source>
      <translation>{label}（预计 {time}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="46" />
      <source>{version} (recommended)</source>
      <translation>{version}（推荐）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="59" />
      <source>⚠ Warnings</source>
      <translation>⚠ 警告</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="42" />
      <source>✔ Fits</source>
      <translation>✔ 适合</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="43" />
      <source>✔ Fits (CPU part only)</source>
      <translation>✔ 适合（仅 CPU 部分）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="54" />
      <source>✔ Fits this computer. {what}</source>
      <translation>✔ 适合这台电脑。{what}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="55" />
      <source>✖ Does not fit this computer ({count} reason):</source>
      <translation>✖ 不适合这台电脑（{count} 个原因）：</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="56" />
      <source>✖ Does not fit this computer ({count} reasons):</source>
      <translation>✖ 不适合这台电脑（{count} 个原因）：</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="44" />
      <source>✖ {reason}</source>
      <translation>✖ {reason}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="45" />
      <source>✖ {reason} (+{more} more)</source>
      <translation>✖ {reason}（另有 {more} 条）</translation>
    </message>
  </context>
  <context>
    <name>KernelStatus</name>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="80" />
      <source>A library is missing or too old</source>
      <translation>缺少某个库或版本太旧</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="77" />
      <source>CUDA is too old</source>
      <translation>CUDA 太旧</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="78" />
      <source>CUDA toolkit does not fit PyTorch</source>
      <translation>CUDA 工具包与 PyTorch 不匹配</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="82" />
      <source>Does not fit</source>
      <translation>不适合</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="81" />
      <source>Missing: {check}</source>
      <translation>缺少：{check}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="73" />
      <source>Needs GPUs linked by NVLink</source>
      <translation>需要通过 NVLink 连接的 GPU</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="74" />
      <source>Needs PyTorch</source>
      <translation>需要 PyTorch</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="75" />
      <source>Needs a CUDA build of PyTorch</source>
      <translation>需要 CUDA 版本的 PyTorch</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="68" />
      <source>Needs an NVIDIA GPU</source>
      <translation>需要 NVIDIA GPU</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="79" />
      <source>Needs another Python version</source>
      <translation>需要其他 Python 版本</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="72" />
      <source>Needs more GPUs</source>
      <translation>需要更多 GPU</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="71" />
      <source>Not built natively here</source>
      <translation>无法在这里直接编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="69" />
      <source>Not for this GPU</source>
      <translation>不支持这块 GPU</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="67" />
      <source>Not for this operating system</source>
      <translation>不支持这个操作系统</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="76" />
      <source>PyTorch is too old</source>
      <translation>PyTorch 太旧</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_texts.py" line="70" />
      <source>This version lacks code for your GPU</source>
      <translation>这个版本没有适用于你的 GPU 的代码</translation>
    </message>
  </context>
  <context>
    <name>PrereqsPage</name>
    <message>
      <location filename="../../app/pages/prereqs.py" line="48" />
      <source>1 thing must be fixed before building</source>
      <translation>编译前必须修复 1 个问题</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="70" />
      <source>Checking again: {title}…</source>
      <translation>正在重新检查：{title}…</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="68" />
      <source>Checking the compiler, CUDA toolkit, long paths and the Python environment…</source>
      <translation>正在检查编译器、CUDA 工具包、长路径和 Python 环境…</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="64" />
      <source>Everything a build needs is in place.</source>
      <translation>编译所需的一切都已就绪。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="51" />
      <source>Follow the advice in each row, then Re-check. Next is enabled once nothing blocks.</source>
      <translation>请按照每一行的建议操作，然后点击“重新检查”。没有阻碍后即可点击“下一步”。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="67" />
      <source>Not now</source>
      <translation>暂不</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="53" />
      <source>Nothing blocks the build</source>
      <translation>没有任何问题阻碍编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="54" />
      <source>Nothing blocks the build (1 warning)</source>
      <translation>没有任何问题阻碍编译（1 个警告）</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="55" />
      <source>Nothing blocks the build ({count} warnings)</source>
      <translation>没有任何问题阻碍编译（{count} 个警告）</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="72" />
      <source>Running: {title}…</source>
      <translation>正在运行：{title}…</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="58" />
      <source>The probe kernel can be built now; {kernels} need what the {rows} row found missing: use the Fix button first, or come back later.</source>
      <translation>现在可以编译探测内核；{kernels} 需要“{rows}”一行发现缺少的东西：请先使用“修复”按钮，或者以后再回来。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="60" />
      <source>The probe kernel can be built now; {kernels} need what the {rows} rows found missing: use the Fix button first, or come back later.</source>
      <translation>现在可以编译探测内核；{kernels} 需要“{rows}”这几行发现缺少的东西：请先使用“修复”按钮，或者以后再回来。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="56" />
      <source>The probe kernel can be built now; {kernels} needs what the {rows} row found missing: use the Fix button first, or come back later.</source>
      <translation>现在可以编译探测内核；{kernels} 需要“{rows}”一行发现缺少的东西：请先使用“修复”按钮，或者以后再回来。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="63" />
      <source>The warnings don't stop the build; read them before you go on.</source>
      <translation>警告不会阻止编译；继续之前请先阅读它们。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="50" />
      <source>Use the Fix buttons below, then Re-check. Next is enabled once nothing blocks.</source>
      <translation>请使用下面的“修复”按钮，然后点击“重新检查”。没有阻碍后即可点击“下一步”。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="49" />
      <source>{count} things must be fixed before building</source>
      <translation>编译前必须修复 {count} 个问题</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="65" />
      <source>{description}

This will run:
{commands}</source>
      <translation>{description}

将要运行：
{commands}</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="71" />
      <source>{error}
Click “Check all again” to try once more.</source>
      <translation>{error}
点击“全部重新检查”再试一次。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="62" />
      <source>{first} and {second}</source>
      <translation>{first}和{second}</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="66" />
      <source>{text}

Windows will ask for administrator rights for this step.</source>
      <translation>{text}

这一步 Windows 会请求管理员权限。</translation>
    </message>
  </context>
  <context>
    <name>Time</name>
    <message>
      <location filename="../../app/time_words.py" line="20" />
      <source>a few seconds left</source>
      <translation>还剩几秒</translation>
    </message>
    <message>
      <location filename="../../app/time_words.py" line="23" />
      <source>about {hours} h {minutes} min left</source>
      <translation>大约还剩 {hours} 小时 {minutes} 分</translation>
    </message>
    <message>
      <location filename="../../app/time_words.py" line="22" />
      <source>about {minutes} min left</source>
      <translation>大约还剩 {minutes} 分钟</translation>
    </message>
    <message>
      <location filename="../../app/time_words.py" line="21" />
      <source>about {seconds} s left</source>
      <translation>大约还剩 {seconds} 秒</translation>
    </message>
    <message>
      <location filename="../../app/time_words.py" line="19" />
      <source>{hours} h {minutes} min</source>
      <translation>{hours} 小时 {minutes} 分</translation>
    </message>
    <message>
      <location filename="../../app/time_words.py" line="24" />
      <source>{left} (longer than estimated)</source>
      <translation>{left}（比预计的时间长）</translation>
    </message>
    <message>
      <location filename="../../app/time_words.py" line="18" />
      <source>{minutes} min {seconds} s</source>
      <translation>{minutes} 分 {seconds} 秒</translation>
    </message>
    <message>
      <location filename="../../app/time_words.py" line="17" />
      <source>{seconds} s</source>
      <translation>{seconds} 秒</translation>
    </message>
  </context>
  <context>
    <name>Verify</name>
    <message>
      <source>Changed since the last passing verification: {changes}.</source>
      <translation type="obsolete">自上次通过验证以来的变化：{changes}。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="43" />
      <source>Check the installed kernels again</source>
      <translation>重新检查已安装的内核</translation>
    </message>
    <message>
      <source>Check {id}</source>
      <translation type="obsolete">检查项 {id}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/verify_results.py" line="41" />
      <source>Copied</source>
      <translation>已复制</translation>
    </message>
    <message>
      <location filename="../../app/widgets/verify_results.py" line="40" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../../app/widgets/verify_results.py" line="37" />
      <source>Details</source>
      <translation>详细信息</translation>
    </message>
    <message>
      <location filename="../../app/widgets/install_offer.py" line="24" />
      <source>Finish without installing</source>
      <translation>不安装，直接结束</translation>
    </message>
    <message>
      <location filename="../../app/widgets/install_offer.py" line="21" />
      <source>Install into {python}</source>
      <translation>安装到 {python}</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="50" />
      <source>Installing into {python}…</source>
      <translation>正在安装到 {python}…</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="56" />
      <source>Installs recorded in {path}.</source>
      <translation>安装记录保存在 {path}。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/install_offer.py" line="22" />
      <source>Installs the kernel into the Python environment in “{folder}”. What it replaces there is backed up first, and “Roll back” undoes the install.</source>
      <translation>把内核安装到“{folder}”中的 Python 环境。它在那里替换的内容会先备份，“回滚”可以撤销这次安装。</translation>
    </message>
    <message>
      <source>It is not installed yet: your Python environment is unchanged.</source>
      <translation type="obsolete">它还没有安装：你的 Python 环境没有改动。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/install_offer.py" line="27" />
      <source>It replaced {name} {version}, which is kept: Roll back puts it back.</source>
      <translation>它替换了 {name} {version}，旧版本已保留：点击“回滚”即可恢复。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="47" />
      <source>Its results are compared with PyTorch's, forward and backward. Nothing is installed now: once every check has passed, you choose whether to install it.</source>
      <translation>把它的结果与 PyTorch 的结果比较，包括前向和反向。现在不会安装任何东西：所有检查都通过后，由你决定是否安装。</translation>
    </message>
    <message>
      <source>Its results are compared with PyTorch's, forward and backward. Nothing is installed unless every check passes.</source>
      <translation type="obsolete">把它的前向和反向计算结果与 PyTorch 的结果比较。只有全部检查通过才会安装。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/install_offer.py" line="25" />
      <source>Leave your Python environment as it is and go to the summary</source>
      <translation>保持你的 Python 环境不变，前往总结页</translation>
    </message>
    <message>
      <source>Not compared: the last passing verification ({when}) ran none of the checks this one ran.</source>
      <translation type="obsolete">未比较：上次通过的验证（{when}）没有运行本次运行的任何检查。</translation>
    </message>
    <message>
      <source>Not compared: this verification ran no check to compare with the last passing one ({when}).</source>
      <translation type="obsolete">未比较：本次验证没有运行可与上次通过的验证（{when}）比较的检查。</translation>
    </message>
    <message>
      <source>Notes:</source>
      <translation type="obsolete">备注：</translation>
    </message>
    <message>
      <source>Nothing changed since the last passing verification.</source>
      <translation type="obsolete">自上次通过验证以来没有变化。</translation>
    </message>
    <message>
      <source>Nothing to check yet: this wizard has not installed a kernel.</source>
      <translation type="obsolete">暂时没有可检查的内容：本向导还没有安装过内核。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="57" />
      <source>Nothing to verify: the build did not produce a wheel.</source>
      <translation>没有可验证的内容：编译没有生成 wheel。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/install_offer.py" line="28" />
      <source>Nothing was installed there before: Roll back removes it again.</source>
      <translation>那里之前没有安装过它：点击“回滚”会再次移除它。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="51" />
      <source>Nothing was installed: your Python environment is as it was.</source>
      <translation>没有安装任何东西：你的 Python 环境保持原样。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="54" />
      <source>Open the report</source>
      <translation>打开报告</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="52" />
      <source>Python: {python}</source>
      <translation>Python：{python}</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="59" />
      <source>Report bundle saved: {bundle}</source>
      <translation>报告包已保存：{bundle}</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="53" />
      <source>Report: {report}</source>
      <translation>报告：{report}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/verify_results.py" line="38" />
      <source>Speed</source>
      <translation>速度</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="55" />
      <source>Testing the kernels this wizard installed again…</source>
      <translation>正在重新测试本向导安装的内核…</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="46" />
      <source>Testing {name}…</source>
      <translation>正在测试 {name}…</translation>
    </message>
    <message>
      <source>Testing {wheel}…</source>
      <translation type="obsolete">正在测试 {wheel}…</translation>
    </message>
    <message>
      <source>The kernel is tested against PyTorch before anything is installed.</source>
      <translation type="obsolete">在安装任何东西之前，先用 PyTorch 测试这个内核。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="41" />
      <source>The kernel is tested against PyTorch. Then you choose whether to install it: nothing is installed before that.</source>
      <translation>用 PyTorch 检验内核。之后由你决定是否安装：在此之前不会安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="44" />
      <source>The kernels this wizard installed are tested against PyTorch again, and compared with their last passing check.</source>
      <translation>用 PyTorch 再次测试本向导安装的内核，并与它们上一次通过的检查结果比较。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="58" />
      <source>The verification could not run.</source>
      <translation>验证无法运行。</translation>
    </message>
    <message>
      <source>There is no earlier passing verification to compare with.</source>
      <translation type="obsolete">没有更早的通过验证可供比较。</translation>
    </message>
    <message>
      <source>These checks passed before and fail now: {checks}.</source>
      <translation type="obsolete">这些检查以前通过，现在失败：{checks}。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/verify_results.py" line="39" />
      <source>Use it in your code</source>
      <translation>在你的代码中使用</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="40" />
      <source>Verify</source>
      <translation>验证</translation>
    </message>
    <message>
      <source>What failed:</source>
      <translation type="obsolete">失败的项目：</translation>
    </message>
    <message>
      <source>You can build it again, save a report bundle for a bug report, or install it anyway (not recommended).</source>
      <translation type="obsolete">你可以重新编译、保存报告包用于问题报告，或者仍然安装（不推荐）。</translation>
    </message>
    <message>
      <source>the output</source>
      <translation type="obsolete">输出</translation>
    </message>
    <message>
      <source>{kernel}: {sentence}</source>
      <translation type="obsolete">{kernel}：{sentence}</translation>
    </message>
    <message>
      <source>{label}: largest error {error}, allowed {limit}</source>
      <translation type="obsolete">{label}：最大误差 {error}，允许 {limit}</translation>
    </message>
    <message>
      <source>{label}: largest error {error}, more than the {limit} allowed</source>
      <translation type="obsolete">{label}：最大误差 {error}，超过允许的 {limit}</translation>
    </message>
    <message>
      <source>{label}: not measured</source>
      <translation type="obsolete">{label}：没有测量</translation>
    </message>
    <message>
      <source>{label}: the kernel returned nothing</source>
      <translation type="obsolete">{label}：内核没有返回任何结果</translation>
    </message>
    <message>
      <source>{label}: wrong shape</source>
      <translation type="obsolete">{label}：形状错误</translation>
    </message>
    <message>
      <source>{label}: {nan} NaN and {inf} infinite values</source>
      <translation type="obsolete">{label}：{nan} 个 NaN 值和 {inf} 个无穷值</translation>
    </message>
    <message>
      <source>{label}: {value}</source>
      <translation type="obsolete">{label}：{value}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/install_offer.py" line="26" />
      <source>{name} {version} is now installed in {python}.</source>
      <translation>{name} {version} 现已安装到 {python}。</translation>
    </message>
    <message>
      <source>{name}, the gradient of {of}</source>
      <translation type="obsolete">{name}，{of} 的梯度</translation>
    </message>
    <message>
      <source>✔ PASS — all {n} installed kernel(s) work.</source>
      <translation type="obsolete">✔ 通过 — 全部 {n} 个已安装的内核工作正常。</translation>
    </message>
    <message>
      <source>✔ PASS — all {n} installed kernels work.</source>
      <translation type="obsolete">✔ 通过 — 全部 {n} 个已安装的内核工作正常。</translation>
    </message>
    <message>
      <source>✔ PASS — the installed kernel works.</source>
      <translation type="obsolete">✔ 通过 — 已安装的内核工作正常。</translation>
    </message>
    <message>
      <source>✔ PASS — the kernel works, and it is installed.</source>
      <translation type="obsolete">✔ 通过 — 内核工作正常，已安装。</translation>
    </message>
    <message>
      <source>✔ PASS — the kernel works.</source>
      <translation type="obsolete">✔ 通过 — 内核工作正常。</translation>
    </message>
    <message>
      <source>✖ FAIL — the kernel computes wrong results. It was not installed.</source>
      <translation type="obsolete">✖ 失败 — 内核计算结果错误，没有安装。</translation>
    </message>
    <message>
      <source>✖ Something no longer works — see below.</source>
      <translation type="obsolete">✖ 有内核不再正常工作 — 见下文。</translation>
    </message>
    <message>
      <source>✖ The kernel could not be checked, so it was not installed.</source>
      <translation type="obsolete">✖ 无法检查这个内核，因此没有安装。</translation>
    </message>
  </context>
  <context>
    <name>Welcome</name>
    <message>
      <location filename="../../app/pages/welcome.py" line="55" />
      <source>Check the installed kernels again (after a driver or PyTorch update)</source>
      <translation>重新检查已安装的内核（在更新驱动或 PyTorch 之后）</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="56" />
      <source>Checks {names} again and names anything that changed since the last passing check.</source>
      <translation>再次检查 {names}，并指出自上次通过检查以来的任何变化。</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="54" />
      <source>Install and verify a kernel</source>
      <translation>安装并验证一个内核</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="58" />
      <source>Nothing has been installed by this wizard yet. Once a kernel is installed and verified, come back here after driver or PyTorch updates to check it again.</source>
      <translation>本向导还没有安装任何东西。安装并验证内核之后，在更新驱动或 PyTorch 后回到这里重新检查。</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="62" />
      <source>Re-verify now</source>
      <translation>立即重新验证</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="61" />
      <source>Since the last start:</source>
      <translation>自上次启动以来：</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="63" />
      <source>Verifies the installed kernels again now, in the environments they were installed into, and compares each with its last passing check.</source>
      <translation>现在就在安装它们的环境中重新验证已安装的内核，并将每个内核与其上次通过的检查进行比较。</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="53" />
      <source>Welcome to the Kernel Setup Wizard</source>
      <translation>欢迎使用内核安装向导</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="66" />
      <source>What changed since the last verification could not be looked at: {error}</source>
      <translation>无法查看自上次验证以来发生的变化：{error}</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="65" />
      <source>{kernel} in {python}: {broken}. What to do: {fix}</source>
      <translation>{python} 中的 {kernel}：{broken}。处理办法：{fix}</translation>
    </message>
  </context>
  <context>
    <name>core</name>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="61" />
      <source>  (none found)</source>
      <translation>  （没有找到）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="110" />
      <source>  • CUDA {version} at {root} ({origin})</source>
      <translation>  • CUDA {version}，位于 {root}（{origin}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="108" />
      <source>  • CUDA {version} at {root} ({origin}) ← the build uses this one</source>
      <translation>  • CUDA {version}，位于 {root}（{origin}）← 编译使用这一个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="69" />
      <source>  • MSVC {toolset} in {name} is not used: {reason}.</source>
      <translation>  • {name} 中的 MSVC {toolset} 不会被使用：{reason}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="57" />
      <source>  • {name} at {path} can't be used: {why}</source>
      <translation>  • {name}，位于 {path}，无法使用：{why}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="36" />
      <source>  • {name} at {path}: {toolsets}</source>
      <translation>  • {name}，位于 {path}：{toolsets}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="105" />
      <source>  • {root} ({origin}): nvcc did not answer: {error}</source>
      <translation>  • {root}（{origin}）：nvcc 没有回答：{error}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="108" />
      <source> (the compiler here is MSVC 14.{minor}, _MSC_VER {msc_ver})</source>
      <translation>（这里的编译器是 MSVC 14.{minor}，_MSC_VER {msc_ver}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="242" />
      <source> ({percent}% of the elements)</source>
      <translation>（占元素的 {percent}%）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="225" />
      <source> at index {index}</source>
      <translation>（位于索引 {index}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="224" />
      <source> at index {index} ({layout})</source>
      <translation>（位于索引 {index}，各维依次为 {layout}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="266" />
      <source> for {arch} (cc {cc})</source>
      <translation>（用于 {arch}，cc {cc}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="261" />
      <source> for {arch} ({target})</source>
      <translation>（用于 {arch}，{target}）</translation>
    </message>
    <message>
      <source>'python -m app --headless installs' lists what it installed.</source>
      <translation type="obsolete">'python -m app --headless installs' 会列出它安装过的内容。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="142" />
      <source>'{command}' lists them</source>
      <translation>'{command}' 会列出它们</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="660" />
      <source>'{command}' lists what it installed.</source>
      <translation>'{command}' 会列出它安装过的内容。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="121" />
      <source>'{command}' says what to do</source>
      <translation>'{command}' 会说明该怎么做</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="114" />
      <source>'{command}' shows the commands to run</source>
      <translation>'{command}' 会列出要运行的命令</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="517" />
      <source>(git: {message})</source>
      <translation>（git：{message}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="460" />
      <source>(not in the wizard's catalog yet)</source>
      <translation>（尚未收入向导的内核目录）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="65" />
      <source>(vswhere answered in the {encoding} code page although it was asked for UTF-8; the wizard read it in that code page.)</source>
      <translation>（虽然要求使用 UTF-8，vswhere 仍用 {encoding} 代码页回答；向导按那个代码页读取了它。）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="159" />
      <source>, also after {n} retries.</source>
      <translation>，重试 {n} 次后仍然如此。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="158" />
      <source>, also after {n} retry.</source>
      <translation>，重试 {n} 次后仍然如此。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="626" />
      <source>, × {factor:g} on Windows</source>
      <translation>，在 Windows 上 × {factor:g}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="156" />
      <source>.</source>
      <translation>。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="624" />
      <source>; bound by its slowest unit (~{seconds:,.0f} s)</source>
      <translation>；受最慢的编译单元限制（约 {seconds:,.0f} 秒）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="621" />
      <source>; one extension after another, each bound by its slowest unit (~{seconds:,.0f} s in all)</source>
      <translation>；扩展逐个编译，每个都受其最慢的编译单元限制（共约 {seconds:,.0f} 秒）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="661" />
      <source>; this one runs {jobs}</source>
      <translation>；这次运行 {jobs} 个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="506" />
      <source>A CUDA build of PyTorch is of use only on a computer with an NVIDIA GPU and its driver.</source>
      <translation>CUDA 版本的 PyTorch 只在装有 NVIDIA GPU 及其驱动的电脑上才有用。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="501" />
      <source>A DLL of PyTorch itself could not be loaded: {what}</source>
      <translation>无法加载 PyTorch 自身的 DLL：{what}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="214" />
      <source>A build tool is missing or cannot be run: {tool}</source>
      <translation>缺少编译工具或无法运行：{tool}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="921" />
      <source>A command line was longer than Windows allows</source>
      <translation>命令行超过了 Windows 允许的长度</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="908" />
      <source>A compile step failed (ninja stopped the build)</source>
      <translation>某个编译步骤失败（ninja 停止了编译）</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1355" />
      <source>A compiler, the linker or pip could not write its output: the disk (or the temporary folder's disk, or the user's quota) is full. Building CUDA kernels writes several GB of intermediate files.</source>
      <translation>编译器、链接器或 pip 无法写入输出：磁盘（或临时文件夹所在的磁盘，或用户配额）已满。构建 CUDA 内核会写入数 GB 的中间文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="850" />
      <source>A file</source>
      <translation>某个文件</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1514" />
      <source>A file could not be written or replaced ({path}): the folder belongs to another user (a system Python's site-packages, or files left by an earlier build run with sudo), or on Windows a program still has the file open.</source>
      <translation>无法写入或替换文件（{path}）：该文件夹属于其他用户（系统 Python 的 site-packages，或之前用 sudo 运行构建留下的文件），或者在 Windows 上有程序仍打开着该文件。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="247" />
      <source>A file path is longer than Windows allows</source>
      <translation>文件路径超过了 Windows 允许的长度</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="547" />
      <source>A library the kernel loads does not provide the symbol {symbol}</source>
      <translation>内核加载的某个库没有提供符号 {symbol}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1143" />
      <source>A package the build itself needs is not installed (packaging, wheel, psutil...)</source>
      <translation>编译本身需要的一个包没有安装（packaging、wheel、psutil...）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="990" />
      <source>A prerequisite must be fixed first: {names}.</source>
      <translation>必须先修复一项前置条件：{names}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="734" />
      <source>A roll-back of {name} {version} in {python} (started {started}) was interrupted, and that Python no longer exists; its record was removed.</source>
      <translation>{python} 中 {name} {version} 的回滚（开始于 {started}）曾被中断，而该 Python 已不存在；其记录已被移除。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="748" />
      <source>A roll-back of {name} {version} in {python} (started {started}) was interrupted; it was finished: {name} was removed.</source>
      <translation>{python} 中 {name} {version} 的回滚（开始于 {started}）曾被中断；现已完成：{name} 已被移除。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="745" />
      <source>A roll-back of {name} {version} in {python} (started {started}) was interrupted; it was finished: {previous} {previous_version} is installed again.</source>
      <translation>{python} 中 {name} {version} 的回滚（开始于 {started}）曾被中断；现已完成：{previous} {previous_version} 已重新安装。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1889" />
      <source>A setting or path is malformed: {value}</source>
      <translation>某个设置或路径的格式不正确：{value}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1889" />
      <source>A setting the build reads is not in the form it expects ({value}): a GPU architecture list (TORCH_CUDA_ARCH_LIST) with an unknown entry, or a path with spaces that a build step splits into pieces.</source>
      <translation>编译读取的某个设置不符合预期的格式（{value}）：可能是 GPU 架构列表（TORCH_CUDA_ARCH_LIST）中有无法识别的条目，或者某个路径含有空格，被某个编译步骤拆成了几段。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="599" />
      <source>A shared library is missing or does not fit: {what}</source>
      <translation>共享库缺失或不匹配：{what}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="939" />
      <source>A shell script has Windows line endings</source>
      <translation>一个 shell 脚本使用了 Windows 换行符</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="939" />
      <source>A shell script was saved with Windows line endings (CRLF), which bash cannot run; this usually comes from git converting line endings on checkout.</source>
      <translation>一个 shell 脚本以 Windows 换行符（CRLF）保存，bash 无法运行它；这通常是 git 在检出时转换了换行符造成的。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/probe.toml" />
      <source>A small attention extension that proves this PC can build and run PyTorch kernels.</source>
      <translation>一个小型注意力扩展，用来证明这台电脑能够编译并运行 PyTorch 内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="211" />
      <source>A source archive has no submodules, and the commit to fetch is not known.</source>
      <translation>源码压缩包不包含子模块，而且不知道要获取哪个提交。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1555" />
      <source>A version requirement is not met: {tool} {required}</source>
      <translation>不满足版本要求：{tool} {required}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="474" />
      <source>About as fast as PyTorch's own {method} attention here ({best} ms; {name} about {expected} ms at {shape}): building gains little speed.</source>
      <translation>与 PyTorch 自带的 {method} 注意力在此处速度相当（{best} ms；{name} 约 {expected} ms，尺寸 {shape}）：构建带来的提速很小。</translation>
    </message>
    <message>
      <source>About as fast as PyTorch's own {method} attention here ({best} ms; {name} about {expected} ms): building gains little speed.</source>
      <translation type="obsolete">与此处 PyTorch 自带的 {method} 注意力差不多快（{best} 毫秒；{name} 约 {expected} 毫秒）：构建它几乎不会提速。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="75" />
      <source>Add &lt;CUDA folder&gt;/include/cccl to the C++ include path and build again (on Linux the CPLUS_INCLUDE_PATH variable, on Windows the INCLUDE variable). The wizard can do this for you and retry.</source>
      <translation>把 &lt;CUDA 文件夹&gt;/include/cccl 加入 C++ 的头文件搜索路径后重新编译（Linux 上是 CPLUS_INCLUDE_PATH 变量，Windows 上是 INCLUDE 变量）。向导可以替你完成并自动重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="760" />
      <source>Add Python {version}'s C headers</source>
      <translation>添加 Python {version} 的 C 头文件</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="758" />
      <source>Add Python {version}'s C headers and import library</source>
      <translation>添加 Python {version} 的 C 头文件和导入库</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1088" />
      <source>Add the toolkit's stub folder to the library path (e.g. LIBRARY_PATH=&lt;cuda&gt;/lib64/stubs) or, on a machine with the driver, run ldconfig so that libcuda.so is found, then build again.</source>
      <translation>把工具包的 stubs 文件夹加入库路径（例如 LIBRARY_PATH=&lt;cuda&gt;/lib64/stubs），或者在装有驱动的机器上运行 ldconfig 让系统找到 libcuda.so，然后重新编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="43" />
      <source>Added “{name}” to the applications menu ({path}).</source>
      <translation>已将“{name}”添加到应用程序菜单（{path}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="497" />
      <source>Also sets git's core.longpaths to true for you (no administrator rights).</source>
      <translation>同时为你把 git 的 core.longpaths 设为 true（不需要管理员权限）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>Ampere (cc 8.0) or newer</source>
      <translation>Ampere（cc 8.0）或更新的 GPU</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="594" />
      <source>An interrupted install of {name} into {python} could not be finished or rolled back yet. {error}</source>
      <translation>把 {name} 安装到 {python} 时被中断，目前还无法完成或回滚。{error}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="598" />
      <source>An interrupted install of {name} into {python} could not be rolled back yet: {error}. The next start tries again.</source>
      <translation>把 {name} 安装到 {python} 时被中断，目前还无法回滚：{error}。下次启动时会再试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="94" />
      <source>Another installation can't be used (see details).</source>
      <translation>另一个安装无法使用（见详细信息）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="536" />
      <source>Ask an administrator to set LongPathsEnabled to 1.</source>
      <translation>请让管理员把 LongPathsEnabled 设为 1。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="54" />
      <source>Asked vswhere ({vswhere}) for Visual Studio with the x64 C++ tools:</source>
      <translation>已向 vswhere（{vswhere}）查询带有 x64 C++ 工具的 Visual Studio：</translation>
    </message>
    <message>
      <source>Before compiling, flash-attn's setup script tries to download a ready-made wheel from GitHub. The connection failed (reset, timed out, blocked by a proxy or firewall), and the setup script only falls back to compiling when the wheel does not exist, not when the network fails.</source>
      <translation type="obsolete">编译前，flash-attn 的安装脚本会尝试从 GitHub 下载现成的 wheel。连接失败了（被重置、超时，或被代理或防火墙拦截），而安装脚本只在 wheel 不存在时才改为编译，网络失败时不会。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1158" />
      <source>Before compiling, the setup script of {package} tries to download a ready-made wheel from GitHub. The connection failed (reset, timed out, blocked by a proxy or firewall), and the setup script only falls back to compiling when the wheel does not exist, not when the network fails.</source>
      <translation>编译前，{package} 的安装脚本会尝试从 GitHub 下载现成的 wheel。连接失败了（被重置、超时，或被代理或防火墙拦截），而安装脚本只在 wheel 不存在时才改为编译，网络失败时不会。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="288" />
      <source>Best fit to install: CUDA {cuda} ({reason}).</source>
      <translation>最适合安装的版本：CUDA {cuda}（{reason}）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flashmla.toml" />
      <source>Blackwell (SM100)</source>
      <translation>Blackwell（SM100）</translation>
    </message>
    <message>
      <source>Build again with fewer parallel jobs (MAX_JOBS) and compiler threads (NVCC_THREADS). The wizard can retry with half the jobs; closing other programs also helps.</source>
      <translation type="obsolete">减少并行任务数（MAX_JOBS）和编译器线程数（NVCC_THREADS）后重新编译。向导可以用一半的任务数自动重试；关闭其他程序也有帮助。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="65" />
      <source>Build again with fewer parallel jobs (MAX_JOBS=1 or 2) and close other programs; if it stops again at the same file, use another version of the compiler that the CUDA toolkit accepts.</source>
      <translation>请用更少的并行任务（MAX_JOBS=1 或 2）重新构建，并关闭其他程序；如果仍在同一个文件处停止，请换用 CUDA 工具包接受的其他编译器版本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1380" />
      <source>Build again with fewer parallel jobs (the wizard can retry with half the jobs); if it crashes again at the same file, use another version of the compiler (gcc, or the Visual Studio toolset) that the CUDA toolkit accepts.</source>
      <translation>请用更少的并行任务重新构建（向导可以用一半的任务数重试）；如果仍在同一文件处崩溃，请换用 CUDA 工具包接受的另一个编译器版本（gcc 或 Visual Studio 工具集）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="272" />
      <source>Build again with fewer parallel jobs ({jobs_setting}). The wizard can retry with half the jobs; closing other programs also helps.</source>
      <translation>请用更少的并行任务重新构建（{jobs_setting}）。向导可以用减半的任务数重试；关闭其他程序也有帮助。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="77" />
      <source>Build folder: {folder} ({free} free on its drive)</source>
      <translation>编译文件夹：{folder}（所在驱动器可用 {free}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="37" />
      <source>Build folder: {folder} ({length} characters).</source>
      <translation>编译文件夹：{folder}（{length} 个字符）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="71" />
      <source>Build folder: {folder} ({length} characters; keep it under {most}).</source>
      <translation>编译文件夹：{folder}（{length} 个字符；请保持在 {most} 个以内）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="800" />
      <source>Build for the GPU that the wizard detected (it sets the architecture list for you). If the GPU is too old for this kernel, choose another kernel: the catalog page explains which ones fit.</source>
      <translation>为向导检测到的 GPU 编译（向导会替你设置架构列表）。如果这块 GPU 对这个内核来说太旧，请选择其他内核：内核选择页面会说明哪些适合。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1477" />
      <source>Build for your GPU's architecture ({arch_setting}, or the -gencode / CMAKE_CUDA_ARCHITECTURES of the kernel's build files), leaving out architectures older than the source supports; the wizard sets it from the detected GPU.</source>
      <translation>请为你的 GPU 架构构建（{arch_setting}，或内核构建文件中的 -gencode / CMAKE_CUDA_ARCHITECTURES），去掉比源代码支持的更旧的架构；向导会根据检测到的 GPU 设置它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="99" />
      <source>Build from source instead (Kernel page).</source>
      <translation>请改为从源码编译（内核页面）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1264" />
      <source>Build inside the Visual Studio developer environment (vcvars64.bat) with the CUDA bin folder on the PATH; the wizard sets up both for its builds.</source>
      <translation>在 Visual Studio 开发者环境（vcvars64.bat）中编译，并把 CUDA 的 bin 文件夹加入 PATH；向导编译时会设置好这两项。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="153" />
      <source>Build it again for PyTorch {torch} (the wizard's Kernel step, or {command}), or go back to the PyTorch it was built for.</source>
      <translation>请为 PyTorch {torch} 重新构建（向导的“内核”步骤，或 {command}），或者换回构建时所用的 PyTorch 版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="830" />
      <source>Build it again, or choose “Install anyway…”.</source>
      <translation>请重新编译，或选择“仍然安装…”。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="645" />
      <source>Build it from source instead.</source>
      <translation>请改为从源代码构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="760" />
      <source>Build the kernel first (the Build step).</source>
      <translation>请先编译内核（“编译”步骤）。</translation>
    </message>
    <message>
      <source>Build the kernel on this machine with the toolkit and libraries installed here (the wizard does), or install the library version it needs; check that LD_LIBRARY_PATH / PATH do not put another copy of {what} first.</source>
      <translation type="obsolete">请在这台机器上用这里安装的工具包和库编译内核（向导就是这样做的），或者安装它所需的库版本；并检查 LD_LIBRARY_PATH / PATH 没有把另一份 {what} 排在前面。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1206" />
      <source>Build this kernel on Linux or in WSL2, or use a version or fork that supports Windows; it cannot be fixed by changing compiler settings.</source>
      <translation>在 Linux 或 WSL2 中编译这个内核，或者使用支持 Windows 的版本或分支；改编译器设置无法解决这个问题。</translation>
    </message>
    <message>
      <source>Build with FLASH_ATTENTION_FORCE_BUILD=TRUE so that no download is tried (the wizard can retry that way), or fix the network or proxy settings (HTTPS_PROXY) for the build.</source>
      <translation type="obsolete">设置 FLASH_ATTENTION_FORCE_BUILD=TRUE 再编译，这样就不会尝试下载（向导可以这样自动重试）；或者修复编译时使用的网络或代理设置（HTTPS_PROXY）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1250" />
      <source>Build with a CUDA 12.x toolkit (12.8 or 12.9 for the newest GPUs) and the matching PyTorch build, or update PyTorch to a version whose extension builder supports CUDA 13 on Windows.</source>
      <translation>使用 CUDA 12.x 工具包（最新的 GPU 用 12.8 或 12.9）和匹配的 PyTorch 编译，或者把 PyTorch 更新到其扩展构建器在 Windows 上支持 CUDA 13 的版本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="92" />
      <source>Build with a Visual Studio compiler toolset that this CUDA accepts: CUDA 12.4 to 13.x accept the Visual Studio 2022 toolsets up to 14.4x (not Visual Studio 2026); CUDA 11.6 to 12.3 accept toolsets up to 14.39 only (Visual Studio 2022 17.10 and later are too new for them); CUDA 11.0 to 11.5 accept Visual Studio 2019 (14.29) at most. Or install CUDA 12.4 or newer with the matching PyTorch. The nvcc flag -allow-unsupported-compiler skips the check, but is a last resort: the build or the kernel may then fail or compute wrong results.</source>
      <translation>使用这个 CUDA 接受的 Visual Studio 编译器工具集来编译：CUDA 12.4 到 13.x 接受 Visual Studio 2022 最高到 14.4x 的工具集（不包括 Visual Studio 2026）；CUDA 11.6 到 12.3 只接受最高到 14.39 的工具集（Visual Studio 2022 17.10 及更高版本对它们来说太新）；CUDA 11.0 到 11.5 最高只接受 Visual Studio 2019（14.29）。也可以安装 CUDA 12.4 或更高版本以及匹配的 PyTorch。nvcc 的 -allow-unsupported-compiler 选项可以跳过这项检查，但这只是最后的办法：之后编译或内核可能失败，或者算出错误的结果。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1681" />
      <source>Build with g++ 8 or newer (e.g. the gcc-9/g++-9 packages, selected with CC and CXX), within the versions your CUDA toolkit accepts.</source>
      <translation>请使用 g++ 8 或更高版本编译（例如 gcc-9/g++-9 软件包，通过 CC 和 CXX 选择），但不要超出你的 CUDA 工具包接受的版本范围。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="61" />
      <source>Build with pip's --no-build-isolation option (the wizard always does this), and make sure a CUDA build of PyTorch is installed in the target environment before building.</source>
      <translation>使用 pip 的 --no-build-isolation 选项编译（向导总是这样做），并确保编译前目标环境中已安装支持 CUDA 的 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1751" />
      <source>Build with the CUDA version the source was written for (its README or setup.py says which), or use a newer version of {package} that supports your CUDA.</source>
      <translation>请使用源码所针对的 CUDA 版本编译（它的 README 或 setup.py 会写明是哪个版本），或者使用支持你的 CUDA 的更新版 {package}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1278" />
      <source>Build with the kernel's own setup (pip install . --no-build-isolation), which adds the device-link step (PyTorch's CUDAExtension(dlink=True)); do not link or copy the objects by hand. Rebuild from a clean build folder.</source>
      <translation>使用内核自己的安装方式编译（pip install . --no-build-isolation），它会加上设备链接步骤（PyTorch 的 CUDAExtension(dlink=True)）；不要手动链接或复制目标文件。从干净的编译文件夹重新编译。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1158" />
      <source>Build with {force_build} so that no download is tried (the wizard can retry that way for the kernels it knows), or fix the network or proxy settings (HTTPS_PROXY) for the build.</source>
      <translation>请使用 {force_build} 编译，这样就不会尝试下载（对于向导已知的内核，它可以这样自动重试）；或者修复编译时使用的网络或代理设置（HTTPS_PROXY）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>Building FlashAttention on Windows takes one to several hours even for one GPU architecture; a matching prebuilt wheel is offered first.</source>
      <translation>在 Windows 上编译 FlashAttention 即使只针对一种 GPU 架构也要一到几个小时；会优先提供匹配的预编译 wheel。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="338" />
      <source>Building without ninja: the build will be very slow</source>
      <translation>没有 ninja 的编译：编译会非常慢</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="793" />
      <source>Built {wheel}.</source>
      <translation>已编译 {wheel}。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/probe.toml" />
      <source>Bundled with the wizard; builds in a minute or two.</source>
      <translation>随向导附带；一两分钟即可编译完成。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="231" />
      <source>By default the Microsoft compiler reports an old C++ version in the __cplusplus macro, so the CUTLASS library (used by FlashAttention) switches off C++17 features it then still uses.</source>
      <translation>Microsoft 编译器默认在 __cplusplus 宏中报告一个旧的 C++ 版本，因此 CUTLASS 库（FlashAttention 使用它）会关闭 C++17 功能，但之后又仍然用到了这些功能。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="29" />
      <source>C compiler</source>
      <translation>C 编译器</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="223" />
      <source>C headers (Python.h)</source>
      <translation>C 头文件（Python.h）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="23" />
      <source>C++ compiler</source>
      <translation>C++ 编译器</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="468" />
      <source>CMake found no CUDA compiler (nvcc)</source>
      <translation>CMake 没有找到 CUDA 编译器（nvcc）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/parallelism.py" line="80" />
      <source>CPU cores</source>
      <translation>CPU 核心数</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="75" />
      <source>CUDA 13 headers (cuda/std/...) not found by the C++ compiler</source>
      <translation>C++ 编译器找不到 CUDA 13 的头文件（cuda/std/...）</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="75" />
      <source>CUDA 13 moved part of its headers (the "CCCL" headers such as cuda/std/utility) into the folder include/cccl. The CUDA compiler still finds them there, but the ordinary C++ compiler that builds the non-CUDA files of the extension does not look in that folder.</source>
      <translation>CUDA 13 把一部分头文件（“CCCL”头文件，例如 cuda/std/utility）移到了 include/cccl 文件夹。CUDA 编译器仍能在那里找到它们，但编译扩展中非 CUDA 文件的普通 C++ 编译器不会查找这个文件夹。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1023" />
      <source>CUDA 13 no longer compiles for the GPU architecture {arch}</source>
      <translation>CUDA 13 已不再为 GPU 架构 {arch} 编译</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1250" />
      <source>CUDA 13's nvcc on Windows reads one of the arguments that PyTorch's extension builder passes as a second input file and stops. Older CUDA versions accept the same command line.</source>
      <translation>Windows 上 CUDA 13 的 nvcc 把 PyTorch 扩展构建器传入的一个参数当成了第二个输入文件，然后停止。更早的 CUDA 版本接受同样的命令行。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1250" />
      <source>CUDA 13's nvcc on Windows rejects the command line PyTorch generates</source>
      <translation>Windows 上 CUDA 13 的 nvcc 拒绝 PyTorch 生成的命令行</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1278" />
      <source>CUDA device code was not device-linked (__cudaRegisterLinkedBinary)</source>
      <translation>CUDA 设备代码没有进行设备链接（__cudaRegisterLinkedBinary）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="290" />
      <source>CUDA driver API</source>
      <translation>CUDA 驱动 API</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="23" />
      <source>CUDA toolkit</source>
      <translation>CUDA 工具包</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="274" />
      <source>CUDA toolkits found:</source>
      <translation>找到的 CUDA 工具包：</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="275" />
      <source>CUDA toolkits found: none</source>
      <translation>找到的 CUDA 工具包：没有</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="160" />
      <source>CUDA toolkits were found, but none of their nvcc compilers runs.</source>
      <translation>找到了 CUDA 工具包，但它们的 nvcc 编译器都无法运行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="123" />
      <source>CUDA {cuda} accepts MSVC up to 14.39 (_MSC_VER below {bound}){yours}: Visual Studio 2022 17.10 and later bring MSVC 14.40 or newer, which it rejects (and whose C++ library needs CUDA 12.4 anyway). Install CUDA 12.4 or newer together with the matching PyTorch, or build with an older toolset installed side by side: 14.39 (vcvarsall -vcvars_ver=14.39) or, for CUDA 11.x, the Visual Studio 2019 toolset 14.29.</source>
      <translation>CUDA {cuda} 最高只接受 MSVC 14.39（_MSC_VER 低于 {bound}）{yours}：Visual Studio 2022 17.10 及更高版本带的是 MSVC 14.40 或更新版本，它会拒绝（而且其 C++ 库本来就需要 CUDA 12.4）。请安装 CUDA 12.4 或更高版本以及匹配的 PyTorch，或者用并行安装的旧工具集编译：14.39（vcvarsall -vcvars_ver=14.39），CUDA 11.x 则用 Visual Studio 2019 的 14.29 工具集。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="131" />
      <source>CUDA {cuda} accepts MSVC up to 14.4x (_MSC_VER below {bound}){yours}: Visual Studio 2026 (MSVC 14.50 and newer) is too new for it. Build with the Visual Studio 2022 toolset (Build Tools for Visual Studio 2022, vcvarsall -vcvars_ver=14.44), or install a CUDA version that supports your Visual Studio.</source>
      <translation>CUDA {cuda} 最高只接受 MSVC 14.4x（_MSC_VER 低于 {bound}）{yours}：Visual Studio 2026（MSVC 14.50 及更新版本）对它来说太新。请用 Visual Studio 2022 的工具集编译（Build Tools for Visual Studio 2022，vcvarsall -vcvars_ver=14.44），或者安装支持你的 Visual Studio 的 CUDA 版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="116" />
      <source>CUDA {cuda} accepts Visual Studio 2017 and 2019 only (MSVC up to 14.29, _MSC_VER below {bound}){yours}. Build with the Visual Studio 2019 toolset 14.29 (Build Tools for Visual Studio 2019, or the "MSVC v142 - VS 2019 C++ build tools" component of Visual Studio 2022, selected with vcvarsall -vcvars_ver=14.29), or install CUDA 12.4 or newer together with the matching PyTorch.</source>
      <translation>CUDA {cuda} 只接受 Visual Studio 2017 和 2019（MSVC 最高 14.29，_MSC_VER 低于 {bound}）{yours}。请用 Visual Studio 2019 的 14.29 工具集编译（Build Tools for Visual Studio 2019，或 Visual Studio 2022 的“MSVC v142 - VS 2019 C++ build tools”组件，用 vcvarsall -vcvars_ver=14.29 选择），或者安装 CUDA 12.4 或更高版本以及匹配的 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="98" />
      <source>CUDA {cuda} accepts {accepted}.</source>
      <translation>CUDA {cuda} 接受 {accepted}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="261" />
      <source>CUDA {cuda} at {root} will be used, matching PyTorch's CUDA {torch}.</source>
      <translation>将使用位于 {root} 的 CUDA {cuda}，与 PyTorch 的 CUDA {torch} 一致。</translation>
    </message>
    <message>
      <source>CUDA {cuda} at {root} will be used.</source>
      <translation type="obsolete">将使用位于 {root} 的 CUDA {cuda}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="264" />
      <source>CUDA {cuda} at {root} works; builds use it once PyTorch here is a CUDA build.</source>
      <translation>位于 {root} 的 CUDA {cuda} 可用；当此处的 PyTorch 为 CUDA 版本后，构建将使用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="89" />
      <source>CUDA {cuda} at {root}.</source>
      <translation>CUDA {cuda}，位于 {root}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="243" />
      <source>CUDA {cuda} cannot compile for your GPU: {which}.</source>
      <translation>CUDA {cuda} 无法为你的 GPU 编译：{which}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="245" />
      <source>CUDA {cuda} cannot compile for {count} of your GPUs: {which}.</source>
      <translation>CUDA {cuda} 无法为你的 {count} 块 GPU 编译：{which}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="186" />
      <source>CUDA {cuda} differs from PyTorch's CUDA {torch} in the minor version; PyTorch only warns about that, and builds normally work.</source>
      <translation>CUDA {cuda} 与 PyTorch 的 CUDA {torch} 次版本号不同；PyTorch 只会对此发出警告，编译通常可以正常进行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="177" />
      <source>CUDA {cuda} does not match PyTorch's CUDA {torch}: PyTorch refuses to build extensions when the major versions differ.</source>
      <translation>CUDA {cuda} 与 PyTorch 的 CUDA {torch} 不一致：主版本号不同时，PyTorch 拒绝编译扩展。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="698" />
      <source>CUDA {cuda} is installed.</source>
      <translation>已安装 CUDA {cuda}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="58" />
      <source>CUDA {cuda} keeps its C++ library headers (cuda/std/…) in {folder}; the build adds that folder to {variable} so the host compiler finds them too.</source>
      <translation>CUDA {cuda} 把它的 C++ 库头文件（cuda/std/…）放在 {folder} 中；编译会把这个文件夹加入 {variable}，让主机编译器也能找到它们。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="54" />
      <source>CUDA {cuda} should have its C++ library headers in {folder}, but that folder is missing: builds will fail with 'cuda/std/...: No such file'. Reinstall the toolkit.</source>
      <translation>CUDA {cuda} 的 C++ 库头文件应该在 {folder} 中，但这个文件夹不存在：编译会失败，并报告“cuda/std/...: No such file”。请重新安装工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="173" />
      <source>CUDA {cuda}'s compiler limits could not be read; nvcc checks the compiler itself when the build starts.</source>
      <translation>无法读取 CUDA {cuda} 对编译器的限制；编译开始时 nvcc 会自己检查编译器。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="533" />
      <source>CUDA {toolkit} is older than 12.4: current Visual Studio 2022 C++ libraries refuse it (STL1002); choose CUDA 12.4 or newer.</source>
      <translation>CUDA {toolkit} 早于 12.4：当前的 Visual Studio 2022 C++ 库不接受它（STL1002）；请选择 CUDA 12.4 或更新版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="169" />
      <source>CUDA's include/cccl folder is missing: builds of some kernels will fail.</source>
      <translation>缺少 CUDA 的 include/cccl 文件夹：某些内核的编译会失败。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="231" />
      <source>CUTLASS headers fail with MSVC (old __cplusplus value)</source>
      <translation>CUTLASS 头文件在 MSVC 下出错（__cplusplus 的值过旧）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="101" />
      <source>Can't be checked until a C++ compiler is installed.</source>
      <translation>安装 C++ 编译器之后才能检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="79" />
      <source>Can't be checked until a CUDA toolkit is installed.</source>
      <translation>安装 CUDA 工具包之后才能检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="153" />
      <source>Can't be checked until gcc/g++ is installed.</source>
      <translation>安装 gcc/g++ 之后才能检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="1018" />
      <source>Cancelled after the build; nothing was installed.</source>
      <translation>编译完成后已取消；没有安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="829" />
      <source>Cancelled before anything was written.</source>
      <translation>在写入任何文件之前已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="388" />
      <source>Cancelled before pip started.</source>
      <translation>在 pip 启动之前已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="193" />
      <source>Cancelled before the installer started.</source>
      <translation>在安装程序启动之前已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="520" />
      <source>Cancelled before the registry was changed.</source>
      <translation>在更改注册表之前已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="456" />
      <source>Cancelled.</source>
      <translation>已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="338" />
      <source>Cause: {cause}</source>
      <translation>原因：{cause}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="113" />
      <source>Changed since the last passing verification: {changes}.</source>
      <translation>自上次通过验证以来的变化：{changes}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="335" />
      <source>Check that the GPU is seated and powered, and that it is not hidden from this system (CUDA_VISIBLE_DEVICES, a virtual machine without GPU passthrough).</source>
      <translation>请检查 GPU 是否插好并已通电，以及它是否对本系统隐藏了（CUDA_VISIBLE_DEVICES，或未启用 GPU 直通的虚拟机）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="78" />
      <source>Check that the build and install folders (the output folder, site-packages) may be written by you, and that no program holds the old files open; install into a virtual environment you own rather than a system Python.</source>
      <translation>请检查你是否有权写入构建和安装目录（输出目录、site-packages），并确认没有程序占用旧文件；请安装到你自己的虚拟环境中，而不是系统 Python。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="86" />
      <source>Check that the computer's date and time are right. On a company network a proxy may inspect HTTPS traffic: ask the IT department for its certificate.</source>
      <translation>请检查电脑的日期和时间是否正确。在公司网络中，代理可能会检查 HTTPS 流量：请向 IT 部门索取它的证书。</translation>
    </message>
    <message>
      <source>Check that the kernel supports your GPU and that it was built for your GPU's architecture (its compute capability); rebuild it for this GPU if not.</source>
      <translation type="obsolete">请确认该内核支持你的 GPU，且是针对你的 GPU 架构（计算能力）构建的；如果不是，请为这块 GPU 重新构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="160" />
      <source>Check that this Python environment still works (the Hardware page).</source>
      <translation>请检查这个 Python 环境是否仍然可用（“硬件”页面）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="169" />
      <source>Check that this Python environment still works, or {choose}.</source>
      <translation>请检查这个 Python 环境是否仍然可用，或者{choose}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="449" />
      <source>Check that this Python environment still works, then try again.</source>
      <translation>请检查这个 Python 环境是否仍然可用，然后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="462" />
      <source>Check that your ~/.gitconfig is writable.</source>
      <translation>请检查你的 ~/.gitconfig 是否可写。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="308" />
      <source>Check that {path} can be written to, then try again, or {alternative}.</source>
      <translation>请确认可以写入 {path}，然后重试，或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="310" />
      <source>Check that {path} can be written to, then try again.</source>
      <translation>请确认可以写入 {path}，然后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="43" />
      <source>Check the address; if it came with the wizard, report this as a bug.</source>
      <translation>请检查地址；如果这个地址是向导自带的，请把它作为问题报告。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="218" />
      <source>Check the internet connection (and proxy settings), then try again.</source>
      <translation>请检查网络连接（以及代理设置），然后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="77" />
      <source>Check the internet connection (and the proxy settings, if your network uses one), then try again.</source>
      <translation>请检查网络连接（如果你的网络使用代理，也请检查代理设置），然后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="407" />
      <source>Check the internet connection (and the proxy, if this network uses one: set HTTPS_PROXY), then run the fix again. Nothing was installed into {python}; pip's output is in {log}.</source>
      <translation>请检查网络连接（如果此网络使用代理，请设置 HTTPS_PROXY），然后再次运行修复。{python} 中没有安装任何内容；pip 的输出在 {log}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="184" />
      <source>Check the internet connection and try again, or choose a local copy of the source (Kernel page → Local folder).</source>
      <translation>请检查网络连接后重试，或者选择一份本地源码副本（内核页面 → 本地文件夹）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="62" />
      <source>Check the internet connection and try again; a later attempt starts from the beginning.</source>
      <translation>请检查网络连接后重试；之后再试时会从头开始。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="59" />
      <source>Check the internet connection and try again; the part already downloaded is kept and a later attempt continues from it.</source>
      <translation>请检查网络连接后重试；已下载的部分会保留，之后再试时会从那里继续。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="44" />
      <source>Check the package name and version pin, the index URL for builds such as +cu121 (pip's --index-url or --extra-index-url), and the network connection (proxy, firewall, git access).</source>
      <translation>检查包名和固定的版本号、+cu121 这类构建所需的索引地址（pip 的 --index-url 或 --extra-index-url），以及网络连接（代理、防火墙、git 访问）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="294" />
      <source>Check the path; create the folder {folder} first, or {alternative}.</source>
      <translation>请检查路径；先创建文件夹 {folder}，或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="36" />
      <source>Check the prerequisites the build needs before anything compiles: the C++ compiler, the CUDA toolkit and its version, PyTorch, Python and the settings (CUDA_HOME, PATH) that point at them. The wizard's Prerequisites page checks each one.</source>
      <translation>检查编译开始前构建所需的前提条件：C++ 编译器、CUDA 工具包及其版本、PyTorch、Python，以及指向它们的设置（CUDA_HOME、PATH）。向导的“前提条件”页会逐项检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/view.py" line="87" />
      <source>Check {id}</source>
      <translation>检查项 {id}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="113" />
      <source>Checked once the target Python has a CUDA build of PyTorch.</source>
      <translation>目标 Python 装有 CUDA 版 PyTorch 后才检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="530" />
      <source>Choose Fix again and answer Yes, or ask an administrator.</source>
      <translation>请再次选择“修复”并回答“是”，或者请管理员帮忙。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="692" />
      <source>Choose Fix again and answer Yes, or install CUDA yourself.</source>
      <translation>请再次选择“修复”并回答“是”，或者自己安装 CUDA。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="611" />
      <source>Choose Fix again and answer Yes, or install the Build Tools yourself.</source>
      <translation>请再次选择“修复”并回答“是”，或者自己安装 Build Tools。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="214" />
      <source>Choose Fix again to install the C++ build tools.</source>
      <translation>再次选择“修复”即可安装 C++ 编译工具。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="250" />
      <source>Choose Fix again to install the toolkit.</source>
      <translation>再次选择“修复”即可安装工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="131" />
      <source>Choose a .tar.gz or .zip file of the kernel's source.</source>
      <translation>请选择内核源码的 .tar.gz 或 .zip 文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="527" />
      <source>Choose a CUDA {major}.x toolkit, or a PyTorch built for CUDA {toolkit_major}.</source>
      <translation>请选择 CUDA {major}.x 工具包，或为 CUDA {toolkit_major} 编译的 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="387" />
      <source>Choose a kernel that supports this GPU (the probe kernel runs on any).</source>
      <translation>请选择支持这个 GPU 的内核（探测内核在任何 GPU 上都能运行）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="77" />
      <source>Choose a short build folder such as C:\ksw.</source>
      <translation>请选择一个短的编译文件夹，例如 C:\ksw。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="983" />
      <source>Choose a working Python environment first.</source>
      <translation>请先选择一个可用的 Python 环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="603" />
      <source>Choose an environment with a newer Python.</source>
      <translation>请选择 Python 版本更新的环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="611" />
      <source>Choose an environment with an older Python.</source>
      <translation>请选择 Python 版本更旧的环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="369" />
      <source>Choose another Python ({need} or newer), or create an environment with one and choose that.</source>
      <translation>请另选一个 Python（{need} 或更新版本），或者用它创建一个环境并选择那个环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="326" />
      <source>Choose another interpreter, or repair this environment (reinstall Python).</source>
      <translation>请另选一个解释器，或者修复这个环境（重新安装 Python）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="625" />
      <source>Choose another kernel or version, one that fits.</source>
      <translation>请选择另一个适合的内核或版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="193" />
      <source>Choose another version on the Kernel page, or report this if the version came with the wizard.</source>
      <translation>请在内核页面选择其他版本；如果这个版本是向导自带的，请报告这个问题。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="173" />
      <source>Choose another version, or report this to the wizard's maintainers.</source>
      <translation>请选择其他版本，或者把这个问题报告给向导的维护者。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="399" />
      <source>Choose the Python environment again; it may have moved.</source>
      <translation>请重新选择 Python 环境；它可能已被移动。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="370" />
      <source>Choose the Python that gets the kernel: {how}.</source>
      <translation>请选择要安装内核的 Python：{how}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="175" />
      <source>Choose the Python that should get the kernel: {where}.</source>
      <translation>请选择要安装内核的 Python：{where}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="71" />
      <source>Choose the folder that holds the kernel's setup.py.</source>
      <translation>请选择包含内核 setup.py 的文件夹。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="214" />
      <source>Choose the folder {folder} instead: it holds the setup.py.</source>
      <translation>请改为选择文件夹 {folder}：它包含 setup.py。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="196" />
      <source>Choose the folder {folder} instead: the repository that holds {subdir}.</source>
      <translation>请改为选择文件夹 {folder}：即包含 {subdir} 的仓库。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/pipeline.py" line="163" />
      <source>Choose the kernel again: the wizard builds it from source.</source>
      <translation>请重新选择该内核：向导将从源代码构建它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/pipeline.py" line="348" />
      <source>Choose the kernel's source again.</source>
      <translation>请重新选择内核的源码。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="258" />
      <source>Choose the python executable of the environment you want the kernel in (for a venv: its bin/python or Scripts\python.exe).</source>
      <translation>请选择要安装内核的那个环境的 python 可执行文件（对于 venv：它的 bin/python 或 Scripts\python.exe）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="33" />
      <source>Choose the source archive (a .tar.gz or .zip file).</source>
      <translation>请选择源码压缩包（.tar.gz 或 .zip 文件）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="203" />
      <source>Choose the top folder of the kernel's repository.</source>
      <translation>请选择内核仓库的顶层文件夹。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="207" />
      <source>Choose the top folder of the kernel's source: the one that holds setup.py.</source>
      <translation>请选择内核源码的顶层文件夹：包含 setup.py 的那个。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="412" />
      <source>Choose version {version} or newer.</source>
      <translation>请选择 {version} 或更新的版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="229" />
      <source>Close every Visual Studio window and installer, then try again.</source>
      <translation>请关闭所有 Visual Studio 窗口和安装程序，然后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="66" />
      <source>Close other programs while building.</source>
      <translation>编译时请关闭其他程序。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/cache.py" line="151" />
      <source>Close programs that may use files there (editors, terminals, a running build), then try again.</source>
      <translation>请关闭可能在使用那里文件的程序（编辑器、终端、正在运行的编译），然后重试。</translation>
    </message>
    <message>
      <source>Close programs that use this environment, then run 'python -m app --headless rollback --python {python}'. The copies are in {folder}.</source>
      <translation type="obsolete">请关闭使用这个环境的程序，然后运行 'python -m app --headless rollback --python {python}'。备份副本在 {folder}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="348" />
      <source>Close programs that use this environment, then run '{command}'. The copies are in {folder}.</source>
      <translation>请关闭使用这个环境的程序，然后运行 '{command}'。副本在 {folder} 中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="356" />
      <source>Close programs that use this environment, then try again.</source>
      <translation>请关闭使用这个环境的程序，然后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="299" />
      <source>Close the programs that may use it (an editor, a terminal in that folder, a running build, a virus scan), then try again, or {alternative}.</source>
      <translation>请关闭可能在使用它的程序（编辑器、打开在该文件夹中的终端、正在运行的编译、病毒扫描），然后重试，或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="302" />
      <source>Close the programs that may use it (an editor, a terminal in that folder, a running build, a virus scan), then try again.</source>
      <translation>请关闭可能在使用它的程序（编辑器、打开在该文件夹中的终端、正在运行的编译、病毒扫描），然后重试。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/comfyui.toml" />
      <source>ComfyUI has no start option for this kernel: only custom nodes that import it use it.</source>
      <translation>ComfyUI 没有针对这个内核的启动选项：只有导入它的自定义节点才会使用它。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/comfyui.toml" />
      <source>ComfyUI uses FlashAttention only when it is started with --use-flash-attention: add it to the command that starts ComfyUI (the portable build: the line in run_nvidia_gpu.bat).</source>
      <translation>ComfyUI 只有在带 --use-flash-attention 启动时才会使用 FlashAttention：请把它加到启动 ComfyUI 的命令中（便携版：run_nvidia_gpu.bat 里的那一行）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/comfyui.toml" />
      <source>ComfyUI uses SageAttention only when it is started with --use-sage-attention: add it to the command that starts ComfyUI (the portable build: the line in run_nvidia_gpu.bat).</source>
      <translation>ComfyUI 只有在带 --use-sage-attention 启动时才会使用 SageAttention：请把它加到启动 ComfyUI 的命令中（便携版：run_nvidia_gpu.bat 里的那一行）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention.toml" />
      <source>Community build from woct0rdho's fork of SageAttention, not from its authors; the verification checks it like a build.</source>
      <translation>来自 woct0rdho 的 SageAttention 分支的社区构建，并非原作者发布；验证会像检查自行构建的版本一样检查它。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>Community build, not from the FlashAttention authors.</source>
      <translation>社区构建，并非来自 FlashAttention 作者。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>Compact build</source>
      <translation>精简构建</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="231" />
      <source>Compile with /Zc:__cplusplus (for nvcc: -Xcompiler /Zc:__cplusplus). flash-attn adds it when the environment variable DISTUTILS_USE_SDK=1 is set, which the wizard sets for its builds.</source>
      <translation>用 /Zc:__cplusplus 编译（nvcc 用 -Xcompiler /Zc:__cplusplus）。设置了环境变量 DISTUTILS_USE_SDK=1 时 flash-attn 会自动加上它，向导编译时会设置这个变量。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="27" />
      <source>Compiler and CUDA fit together</source>
      <translation>编译器与 CUDA 是否匹配</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1112" />
      <source>Compiling a Python extension needs the Python headers (include/Python.h) and, on Windows, the import library (libs/pythonXY.lib) of the Python that runs the build. This Python has none: an embedded Python (ComfyUI portable's python_embeded), or Linux without the python3-dev / python3-devel package for this exact Python version.</source>
      <translation>编译 Python 扩展需要运行编译的那个 Python 的头文件（include/Python.h），在 Windows 上还需要它的导入库（libs/pythonXY.lib）。这个 Python 没有这些文件：它是嵌入式 Python（ComfyUI 便携版的 python_embeded），或者是 Linux 上没有安装对应 Python 版本的 python3-dev / python3-devel 软件包。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1889" />
      <source>Correct the setting: for TORCH_CUDA_ARCH_LIST use numbers such as 8.6;9.0 (or leave it unset and let the wizard set it from the detected GPU); keep the build and toolkit paths free of spaces, or quote them, then build again.</source>
      <translation>请更正这个设置：TORCH_CUDA_ARCH_LIST 请使用 8.6;9.0 这样的数字（或者不设置它，让向导根据检测到的 GPU 来设置）；编译路径和工具包路径中不要有空格，或者给它们加上引号，然后重新编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="166" />
      <source>Could not ask {python} which files of {name} it has installed.</source>
      <translation>无法向 {python} 查询它安装了 {name} 的哪些文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="432" />
      <source>Could not keep a copy of {name} {version} before replacing it; nothing was changed.</source>
      <translation>替换 {name} {version} 之前无法保留它的副本；没有做任何改动。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="344" />
      <source>Could not put {name} {version} back into {python}.</source>
      <translation>无法把 {name} {version} 恢复到 {python}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="74" />
      <source>Could not reach the server {host} to download {name}.</source>
      <translation>无法连接服务器 {host} 来下载 {name}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="182" />
      <source>Could not reach {host} to download {what}.</source>
      <translation>无法连接 {host} 来下载 {what}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="350" />
      <source>Could not reach {host} to fetch {name}.</source>
      <translation>无法连接 {host} 来获取 {name}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/nvml_record.py" line="270" />
      <source>Could not read the NVML recording {path}.</source>
      <translation>无法读取 NVML 记录文件 {path}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="353" />
      <source>Could not remove {name} {version} from {python}.</source>
      <translation>无法从 {python} 移除 {name} {version}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/statefile.py" line="124" />
      <source>Could not save {path}.</source>
      <translation>无法保存 {path}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="343" />
      <source>Could not {action}: {cause}.</source>
      <translation>无法{action}：{cause}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="47" />
      <source>Decoding step</source>
      <translation>解码步骤</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1311" />
      <source>DeepEP V2 compiles its NCCL "Gin" backend, which uses NCCL's device API from NCCL 2.30.4 on. The NCCL headers in this environment are older (PyTorch 2.11 brings NCCL 2.28), so the compiler does not know those names.</source>
      <translation>DeepEP V2 会编译它的 NCCL“Gin”后端，这个后端使用 NCCL 2.30.4 起才有的设备 API。这个环境中的 NCCL 头文件比较旧（PyTorch 2.11 自带 NCCL 2.28），所以编译器不认识这些名称。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1294" />
      <source>DeepEP and the installed NVSHMEM do not fit together</source>
      <translation>DeepEP 与已安装的 NVSHMEM 不匹配</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1294" />
      <source>DeepEP is linked against NVSHMEM, and this NVSHMEM does not provide what this DeepEP version expects: it was built without IBGDA support, it is a newer release that changed how its device state is defined (NVSHMEM 3.5 with older DeepEP), or it is not found at all.</source>
      <translation>DeepEP 链接到 NVSHMEM，而这个 NVSHMEM 没有提供这个 DeepEP 版本所需的东西：它编译时没有启用 IBGDA 支持，或者它是改变了设备状态定义方式的较新版本（NVSHMEM 3.5 搭配较旧的 DeepEP），或者根本找不到它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1311" />
      <source>DeepEP needs a newer NCCL than the one installed with PyTorch</source>
      <translation>DeepEP 需要比 PyTorch 自带的更新的 NCCL</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flashmla.toml" />
      <source>DeepSeek's MLA decoding and sparse prefill kernels for Hopper and Blackwell datacenter GPUs.</source>
      <translation>DeepSeek 的 MLA 解码与稀疏预填充内核，适用于 Hopper 和 Blackwell 数据中心 GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="385" />
      <source>Deselect this GPU to build for the others.</source>
      <translation>取消选择这个 GPU，为其他 GPU 编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="15" />
      <source>Disk space and memory</source>
      <translation>磁盘空间和内存</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="39" />
      <source>Download it again (the wizard does this when you retry), or choose another copy.</source>
      <translation>请重新下载（重试时向导会这样做），或者选择另一份副本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="142" />
      <source>Downloaded {name} ({size}) and checked it.</source>
      <translation>已下载 {name}（{size}）并完成检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="140" />
      <source>Downloaded {name} ({size}), continuing after the connection dropped; checked.</source>
      <translation>已下载 {name}（{size}），连接中断后继续完成；已检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="136" />
      <source>Downloaded {name} ({size}), continuing the earlier download that had stopped at {earlier}; checked.</source>
      <translation>已下载 {name}（{size}），从之前停在 {earlier} 的下载处继续；已检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="175" />
      <source>Downloading {name}</source>
      <translation>正在下载 {name}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="580" />
      <source>Downloads Microsoft's Visual Studio Build Tools 2022 installer (from {url}) and installs the 'Desktop development with C++' workload with its recommended parts: the MSVC compiler and the Windows SDK (several GB). Windows asks for administrator rights; the installer shows its own progress window.</source>
      <translation>下载微软的 Visual Studio Build Tools 2022 安装程序（来自 {url}），并安装“使用 C++ 的桌面开发”工作负载及其推荐组件：MSVC 编译器和 Windows SDK（几 GB）。Windows 会请求管理员权限；安装程序会显示自己的进度窗口。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="657" />
      <source>Downloads NVIDIA's CUDA {cuda} network installer ({reason}) and installs, without questions, only what building PyTorch extensions needs: the nvcc compiler, the runtime and the cuBLAS/cuSPARSE/cuSOLVER/cuRAND headers (no driver, no samples). Windows asks for administrator rights.</source>
      <translation>下载 NVIDIA 的 CUDA {cuda} 网络安装程序（{reason}），并在不提问的情况下只安装编译 PyTorch 扩展所需的部分：nvcc 编译器、运行时以及 cuBLAS/cuSPARSE/cuSOLVER/cuRAND 头文件（不含驱动，不含示例）。Windows 会请求管理员权限。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="662" />
      <source>Downloads NVIDIA's CUDA {cuda} network installer and installs, without questions, only what building PyTorch extensions needs: the nvcc compiler, the runtime and the cuBLAS/cuSPARSE/cuSOLVER/cuRAND headers (no driver, no samples). Windows asks for administrator rights.</source>
      <translation>下载 NVIDIA 的 CUDA {cuda} 网络安装程序，并在不提问的情况下只安装编译 PyTorch 扩展所需的部分：nvcc 编译器、运行时以及 cuBLAS/cuSPARSE/cuSOLVER/cuRAND 头文件（不含驱动，不含示例）。Windows 会请求管理员权限。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/report.py" line="54" />
      <source>ERROR</source>
      <translation>出错</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="467" />
      <source>Expected to pay off: about {x}× as fast as PyTorch's fastest attention here ({method}, {best} ms; {name} about {expected} ms at {shape}).</source>
      <translation>预计值得构建：约为此处 PyTorch 最快注意力（{method}，{best} 毫秒）的 {x} 倍速度（{name} 在 {shape} 下约 {expected} 毫秒）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="435" />
      <source>Expected to pay off: this PyTorch has only its slow math attention on this GPU ({ms} ms at {shape}), and fast kernels are many times faster than that.</source>
      <translation>预计值得构建：此 PyTorch 在这块 GPU 上只有较慢的 math 注意力（{shape} 下 {ms} 毫秒），快速内核要快很多倍。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/deepep.toml" />
      <source>Expert-parallel (MoE) dispatch and combine kernels for multi-GPU NVLink machines.</source>
      <translation>用于多 GPU NVLink 机器的专家并行（MoE）分发与合并内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/report.py" line="52" />
      <source>FAIL</source>
      <translation>失败</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention3.toml" />
      <source>FP4 attention for Blackwell GPUs (RTX 50xx, B200): faster than SageAttention 2, less accurate; forward only.</source>
      <translation>用于 Blackwell GPU（RTX 50xx、B200）的 FP4 注意力：比 SageAttention 2 更快，但精度更低；仅前向。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>Fast exact attention (forward and backward) for Ampere and newer NVIDIA GPUs.</source>
      <translation>适用于 Ampere 及更新 NVIDIA GPU 的快速精确注意力（前向和反向）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/pipeline.py" line="339" />
      <source>Files were written or removed in it at the same time (an editor, a git checkout or another build).</source>
      <translation>同时有文件在其中被写入或删除（编辑器、git 检出或另一次编译）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="308" />
      <source>First error (line {number}):</source>
      <translation>第一个错误（第 {number} 行）：</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="165" />
      <source>Fits this computer (CPU part only).</source>
      <translation>适合这台电脑（仅 CPU 部分）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="166" />
      <source>Fits this computer.</source>
      <translation>适合这台电脑。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="70" />
      <source>FlashAttention 2 needs an Ampere GPU (RTX 30 series, A100) or newer</source>
      <translation>FlashAttention 2 需要 Ampere（RTX 30 系列、A100）或更新的 GPU</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>FlashAttention 3's authors build and test it on Linux only: native Windows support is an open request upstream (issue #1820), and no Windows build of it has been verified</source>
      <translation>FlashAttention 3 的作者只在 Linux 上构建和测试它：原生 Windows 支持在上游仍是未解决的请求（issue #1820），其 Windows 构建也未经验证</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="71" />
      <source>FlashAttention needs about 5 GB of RAM per compiler thread</source>
      <translation>FlashAttention 每个编译线程约需 5 GB 内存</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="954" />
      <source>FlashMLA has no kernel for this head dimension (output would be all zeros)</source>
      <translation>FlashMLA 没有适用于这个 head 维度的内核（输出会全部为零）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="79" />
      <source>FlashMLA needs a Hopper (SM90) or Blackwell datacenter (SM100) GPU</source>
      <translation>FlashMLA 需要 Hopper（SM90）或 Blackwell 数据中心（SM100）GPU</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="954" />
      <source>FlashMLA was called with a head dimension it has no compiled kernel for. It prints this line and silently skips the computation, so the result is all zeros instead of an error.</source>
      <translation>调用 FlashMLA 时使用的 head 维度没有对应的已编译内核。它只打印这一行并悄悄跳过计算，所以结果全是零，而不是报错。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/fooocus.toml" />
      <source>Fooocus has no start option for this kernel: its attention options are --attention-split, --attention-quad, --attention-pytorch and xformers (used when installed unless --disable-xformers).</source>
      <translation>Fooocus 没有针对这个内核的启动选项：它的注意力选项是 --attention-split、--attention-quad、--attention-pytorch 和 xformers（已安装时自动使用，除非指定 --disable-xformers）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="573" />
      <source>For GPU kernels on a computer with an NVIDIA GPU, install a CUDA build of PyTorch: {where}.</source>
      <translation>如果要在装有 NVIDIA GPU 的电脑上使用 GPU 内核，请安装 CUDA 版本的 PyTorch：{where}。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/text-generation-webui.toml" />
      <source>For models loaded with the Transformers loader, choose flash_attention_2 as attn-implementation on the Model tab, or start it with --attn-implementation flash_attention_2 (a line in user_data/CMD_FLAGS.txt). ExLlamaV2/V3 use FlashAttention by themselves when it is installed.</source>
      <translation>对用 Transformers 加载器加载的模型，在 Model 标签页把 attn-implementation 选为 flash_attention_2，或带 --attn-implementation flash_attention_2 启动（写在 user_data/CMD_FLAGS.txt 中）。ExLlamaV2/V3 在已安装 FlashAttention 时会自动使用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="490" />
      <source>For {workload}: {sentence}</source>
      <translation>对于{workload}：{sentence}</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/forge.toml" />
      <source>Forge has no start option for this kernel: its attention options are --attention-pytorch, --attention-split, --attention-quad and xformers (used when installed unless --disable-xformers). Only extensions that import the kernel use it.</source>
      <translation>Forge 没有针对这个内核的启动选项：它的注意力选项是 --attention-pytorch、--attention-split、--attention-quad 和 xformers（已安装时自动使用，除非指定 --disable-xformers）。只有导入这个内核的扩展才会使用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="46" />
      <source>Forward and backward</source>
      <translation>前向和反向计算</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="45" />
      <source>Forward pass</source>
      <translation>前向计算</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/framepack.toml" />
      <source>FramePack has no option for this kernel.</source>
      <translation>FramePack 没有针对这个内核的选项。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/framepack.toml" />
      <source>FramePack uses this kernel by itself when it is installed in its Python: nothing to set. Restart FramePack.</source>
      <translation>这个内核装在 FramePack 的 Python 中后，FramePack 会自动使用它，无需设置。请重新启动 FramePack。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1355" />
      <source>Free disk space, or point the build and temporary folders (TMPDIR / TEMP) at a disk with room (the wizard's Free space check says how much a build needs), then build again.</source>
      <translation>请释放磁盘空间，或将构建文件夹和临时文件夹（TMPDIR / TEMP）指向有空间的磁盘（向导的“释放空间”检查会说明一次构建需要多少空间），然后重新构建。</translation>
    </message>
    <message>
      <source>Free some disk space in the wizard's data folder, then try again.</source>
      <translation type="obsolete">请在向导的数据文件夹所在磁盘上腾出一些空间，然后重试。</translation>
    </message>
    <message>
      <source>Free some disk space or check the folder's permissions, then try again. The earlier copy of the file was left as it was.</source>
      <translation type="obsolete">请腾出一些磁盘空间或检查文件夹的权限，然后重试。该文件原来的副本保持不变。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="61" />
      <source>Free some space if a big build fails.</source>
      <translation>如果大的编译失败，请释放一些空间。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="340" />
      <source>Free some space on the drive of {folder} (the source with its submodules can take a few GB), then try again.</source>
      <translation>请在 {folder} 所在的磁盘上腾出一些空间（源码连同子模块可能要占几 GB），然后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="44" />
      <source>Free some space, or choose a build folder on another drive.</source>
      <translation>请释放一些空间，或者在另一个驱动器上选择编译文件夹。</translation>
    </message>
    <message>
      <source>Free space on that disk (old builds: python -m app --headless clean), or {alternative}.</source>
      <translation type="obsolete">请在那个磁盘上腾出空间（清理旧的编译：python -m app --headless clean），或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="270" />
      <source>Free space on that disk (old builds: {clean}), or {alternative}.</source>
      <translation>请释放那个磁盘上的空间（旧的编译结果：{clean}），或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="305" />
      <source>Free space or lift the file size limit, or {alternative}.</source>
      <translation>请腾出空间或放宽文件大小限制，或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>Full build</source>
      <translation>完整构建</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="238" />
      <source>GPU {index} ({name})</source>
      <translation>GPU {index}（{name}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="223" />
      <source>GPUs 0–{last} are all connected with NVLink ({links} links each).</source>
      <translation>GPU 0–{last} 全部通过 NVLink 连接（每个 {links} 条链路）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="225" />
      <source>GPUs 0–{last} are all connected with NVLink.</source>
      <translation>GPU 0–{last} 全部通过 NVLink 连接。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="972" />
      <source>Get the source with its submodules: git clone --recursive, or run git submodule update --init --recursive in the source folder (with internet access), then build again. The wizard's source step does this for git sources.</source>
      <translation>获取包含子模块的源码：git clone --recursive，或者在源码文件夹中运行 git submodule update --init --recursive（需要网络），然后重新编译。对于 git 源码，向导的获取源码步骤会这样做。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="274" />
      <source>Give your user write access to {path}, or {alternative}.</source>
      <translation>请给你的用户授予 {path} 的写入权限，或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="367" />
      <source>Go back to the Hardware step and let it finish.</source>
      <translation>请返回“硬件”步骤，等它完成。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>Hopper (SM90)</source>
      <translation>Hopper（SM90）</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/deepep.toml" />
      <source>Hopper (SM90) GPUs, or newer ones with SM90 PTX support</source>
      <translation>Hopper（SM90）GPU，或支持 SM90 PTX 的更新 GPU</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flashmla.toml" />
      <source>Hopper (cc 9.0) or Blackwell datacenter GPUs (cc 10.0, 10.3)</source>
      <translation>Hopper（cc 9.0）或 Blackwell 数据中心 GPU（cc 10.0、10.3）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="196" />
      <source>If this computer has no internet access, choose a local copy of the source (Kernel page → Local folder).</source>
      <translation>如果这台电脑无法上网，请选择一份本地源码副本（内核页面 → 本地文件夹）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="526" />
      <source>Import torch before the kernel (put "import torch" first). If it still fails, the kernel does not fit the installed PyTorch: reinstall the wheel made for this PyTorch, or rebuild it against the PyTorch installed now.</source>
      <translation>请在内核之前导入 torch（把 “import torch” 放在最前面）。如果仍然失败，说明内核与已安装的 PyTorch 不匹配：请重新安装为此 PyTorch 构建的 wheel，或针对当前安装的 PyTorch 重新构建。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/sdnext.toml" />
      <source>In SD.Next's settings choose "Sage attention" as the attention method (the cross-attention optimization setting), then apply the settings.</source>
      <translation>在 SD.Next 的设置中把注意力方法选为 "Sage attention"（cross-attention optimization 这一项），然后应用设置。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="254" />
      <source>In that folder run: git submodule update --init --recursive {path} — or download {where} as an archive and extract it into {path} — or let the wizard fetch the source (Kernel page → Download).</source>
      <translation>在那个文件夹中运行：git submodule update --init --recursive {path} — 或者把 {where} 下载为压缩包并解压到 {path} — 或者让向导获取源码（内核页面 → 下载）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="125" />
      <source>Install "Build Tools for Visual Studio 2022" with the "Desktop development with C++" workload (the wizard can: the Fix of its "C++ compiler" prerequisite, or `python -m app --headless fix compiler`), then build again; the wizard runs the build inside the Visual Studio environment.</source>
      <translation>安装“Build Tools for Visual Studio 2022”及“使用 C++ 的桌面开发”工作负载（向导可以代劳：使用“C++ 编译器”前置条件的“修复”，或运行 `python -m app --headless fix compiler`），然后重新编译；向导会在 Visual Studio 环境中运行编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="524" />
      <source>Install 64-bit Python (python.org: 'Windows installer (64-bit)') and choose it.</source>
      <translation>请安装 64 位的 Python（python.org：“Windows installer (64-bit)”）并选择它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="113" />
      <source>Install CUDA 12.4 or newer (matching the CUDA version of your PyTorch) and build again.</source>
      <translation>安装 CUDA 12.4 或更高版本（与你的 PyTorch 的 CUDA 版本一致），然后重新编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="84" />
      <source>Install CUDA {cuda}</source>
      <translation>安装 CUDA {cuda}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="566" />
      <source>Install CUDA {need} or newer (with a PyTorch built for the same CUDA major version).</source>
      <translation>请安装 CUDA {need} 或更新版本（并搭配为相同 CUDA 主版本编译的 PyTorch）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="181" />
      <source>Install CUDA {torch}, or a PyTorch built for CUDA {major}.</source>
      <translation>请安装 CUDA {torch}，或者为 CUDA {major} 构建的 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="576" />
      <source>Install JAX with its CUDA extra, which brings matching NVIDIA libraries as pip packages (pip install -U "jax[cuda12]"), and make sure LD_LIBRARY_PATH does not put an older cuDNN or CUDA first (unset it, or remove the old folder from it); or install the {what} version JAX names. Then restart the program.</source>
      <translation>安装带 CUDA 附加项的 JAX，它会以 pip 包的形式带来匹配的 NVIDIA 库（pip install -U "jax[cuda12]"），并确认 LD_LIBRARY_PATH 没有把更旧的 cuDNN 或 CUDA 排在前面（取消设置它，或从中删去旧文件夹）；或者安装 JAX 指明的 {what} 版本。然后重新启动程序。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="486" />
      <source>Install PyTorch into this Python: {fix}.</source>
      <translation>请把 PyTorch 安装到这个 Python 中：{fix}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="496" />
      <source>Install PyTorch {need} or newer.</source>
      <translation>请安装 PyTorch {need} 或更新版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="574" />
      <source>Install Visual Studio Build Tools 2022 (C++)</source>
      <translation>安装 Visual Studio Build Tools 2022（C++）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="113" />
      <source>Install Visual Studio Build Tools 2022 (its MSVC 14.44 fits), or a newer CUDA toolkit.</source>
      <translation>请安装 Visual Studio Build Tools 2022（其中的 MSVC 14.44 适合），或者更新的 CUDA 工具包。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1420" />
      <source>Install a CUDA build of PyTorch in the same Python: uninstall torch, then install it with the index URL for your CUDA version that pytorch.org gives (for example pip install torch --index-url https://download.pytorch.org/whl/cu121). Check with python -c "import torch; print(torch.cuda.is_available())".</source>
      <translation>在同一个 Python 中安装支持 CUDA 的 PyTorch：先卸载 torch，再使用 pytorch.org 为你的 CUDA 版本给出的索引地址安装（例如 pip install torch --index-url https://download.pytorch.org/whl/cu121）。可用 python -c "import torch; print(torch.cuda.is_available())" 检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="504" />
      <source>Install a CUDA build of PyTorch into this Python: {fix}.</source>
      <translation>请把 CUDA 版本的 PyTorch 安装到这个 Python 中：{fix}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="441" />
      <source>Install a CUDA toolkit (one that matches PyTorch's CUDA version if the build uses PyTorch), or put its bin folder (for example /usr/local/cuda/bin) on PATH for the build; under sudo, keep your PATH (sudo env "PATH=$PATH" ...) or build without sudo. The wizard finds nvcc itself for its own builds.</source>
      <translation>安装 CUDA 工具包（如果构建使用 PyTorch，请选择与 PyTorch 的 CUDA 版本一致的版本），或者把它的 bin 文件夹（例如 /usr/local/cuda/bin）加入构建所用的 PATH；使用 sudo 时请保留你的 PATH（sudo env "PATH=$PATH" ...），或者不用 sudo 构建。向导自己的构建会自行找到 nvcc。</translation>
    </message>
    <message>
      <source>Install a CUDA toolkit new enough for the architecture (CUDA 12.8 or newer for Blackwell), matching your PyTorch's CUDA version, or build only for the architectures of your own GPU (TORCH_CUDA_ARCH_LIST); the wizard sets the list from the detected GPU.</source>
      <translation type="obsolete">安装一个足够新、支持该架构的 CUDA 工具包（Blackwell 需要 CUDA 12.8 或更高版本），并与你的 PyTorch 的 CUDA 版本一致；或者只为你自己 GPU 的架构编译（TORCH_CUDA_ARCH_LIST）；向导会根据检测到的 GPU 设置这个列表。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1049" />
      <source>Install a CUDA toolkit new enough for the architecture (CUDA 12.8 or newer for Blackwell), matching your PyTorch's CUDA version, or build only for the architectures of your own GPU ({arch_setting}); the wizard sets it from the detected GPU.</source>
      <translation>请安装足够新、支持该架构的 CUDA 工具包（Blackwell 需要 CUDA 12.8 或更高版本），并与你的 PyTorch 的 CUDA 版本一致；或者只为你自己 GPU 的架构编译（{arch_setting}）；向导会根据检测到的 GPU 设置它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="374" />
      <source>Install a CUDA toolkit that matches PyTorch's CUDA version and select it in the wizard, and make sure the target environment has a CUDA build of PyTorch, not a CPU-only one.</source>
      <translation>安装与 PyTorch 的 CUDA 版本一致的 CUDA 工具包并在向导中选择它，并确保目标环境中装的是支持 CUDA 的 PyTorch，而不是仅 CPU 版本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="468" />
      <source>Install a CUDA toolkit that matches PyTorch's CUDA version, then build with its bin folder on PATH or with CUDACXX set to the full path of nvcc (for example /usr/local/cuda/bin/nvcc).</source>
      <translation>安装与 PyTorch 的 CUDA 版本相匹配的 CUDA 工具包，然后在其 bin 文件夹位于 PATH 上、或将 CUDACXX 设为 nvcc 的完整路径（例如 /usr/local/cuda/bin/nvcc）的情况下重新构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="577" />
      <source>Install a PyTorch built for CUDA {need} or newer.</source>
      <translation>请安装为 CUDA {need} 或更新版本编译的 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="293" />
      <source>Install a PyTorch built for a newer CUDA (Fix).</source>
      <translation>请安装为更新的 CUDA 构建的 PyTorch（修复）。</translation>
    </message>
    <message>
      <source>Install a PyTorch version (with its CUDA build) that knows your GPU, or, only if you build for other GPUs than this one, leave {arch} out of TORCH_CUDA_ARCH_LIST.</source>
      <translation type="obsolete">请安装能识别你的 GPU 的 PyTorch 版本（CUDA 版）；或者，仅当你是为这块 GPU 以外的其他 GPU 编译时，把 {arch} 从 TORCH_CUDA_ARCH_LIST 中去掉。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1696" />
      <source>Install a PyTorch version (with its CUDA build) that supports your GPU; only if you build for other GPUs than this one, leave {arch} out of TORCH_CUDA_ARCH_LIST instead.</source>
      <translation>请安装支持你的 GPU 的 PyTorch 版本（及其 CUDA 构建）；只有当你是为这块 GPU 以外的其他 GPU 构建时，才改为把 {arch} 从 TORCH_CUDA_ARCH_LIST 中去掉。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="989" />
      <source>Install a gcc that this CUDA accepts (no newer than the version the message names, e.g. the gcc-12 and g++-12 packages) and point the build at it with CC, CXX and NVCC_CCBIN, or install a newer CUDA toolkit that supports your gcc. -allow-unsupported-compiler is a last resort.</source>
      <translation>安装一个这个 CUDA 接受的 gcc（不高于消息中写明的版本，例如 gcc-12 和 g++-12 软件包），并通过 CC、CXX 和 NVCC_CCBIN 让编译使用它；或者安装支持你的 gcc 的更新版 CUDA 工具包。-allow-unsupported-compiler 只是最后的办法。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="161" />
      <source>Install a gcc version CUDA accepts (e.g. 'sudo apt-get install g++-&lt;N&gt;') and make it the default, or install a newer CUDA toolkit.</source>
      <translation>请安装一个 CUDA 接受的 gcc 版本（例如 'sudo apt-get install g++-&lt;N&gt;'）并把它设为默认，或者安装更新的 CUDA 工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="115" />
      <source>Install a newer CUDA toolkit, or add an MSVC toolset in {accepted} with the Visual Studio Installer ('Individual components').</source>
      <translation>请安装更新的 CUDA 工具包，或者用 Visual Studio Installer 添加一个 {accepted} 范围内的 MSVC 工具集（“单个组件”）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1311" />
      <source>Install a newer NCCL next to PyTorch (pip install "nvidia-nccl-cu13&gt;=2.30.4" --no-deps, or -cu12 for a CUDA 12 PyTorch) and build again, or choose DeepEP V1, which builds with PyTorch's own NCCL.</source>
      <translation>在 PyTorch 旁边安装更新的 NCCL（pip install "nvidia-nccl-cu13&gt;=2.30.4" --no-deps；CUDA 12 版 PyTorch 用 -cu12），然后重新编译；或者选择 DeepEP V1，它使用 PyTorch 自带的 NCCL 编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="685" />
      <source>Install a newer NCCL next to PyTorch: {command} (or choose another version of {kernel}).</source>
      <translation>请在 PyTorch 旁安装更新的 NCCL：{command}（或选择 {kernel} 的其他版本）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="832" />
      <source>Install an older PyTorch build that still supports {arch} (the line after this one lists the architectures this one supports; older releases and their CUDA 11 builds reach back further), and a kernel version made for that PyTorch, or use a newer NVIDIA GPU.</source>
      <translation>安装仍然支持 {arch} 的较旧 PyTorch 版本（此行之后的一行列出了当前版本支持的架构；更早的版本及其 CUDA 11 构建支持更老的 GPU），以及为该 PyTorch 制作的内核版本，或者改用更新的 NVIDIA GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="166" />
      <source>Install gcc and g++</source>
      <translation>安装 gcc 和 g++</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="171" />
      <source>Install gcc and g++ with your distribution's package manager.</source>
      <translation>请用你的发行版的包管理器安装 gcc 和 g++。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/fetch.py" line="126" />
      <source>Install git (https://git-scm.com), or let the wizard download the source archive instead.</source>
      <translation>请安装 git（https://git-scm.com），或者让向导改为下载源码压缩包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="213" />
      <source>Install git and try again, or choose a local copy with the submodule (Kernel page → Local folder).</source>
      <translation>请安装 git 后重试，或者选择一份包含该子模块的本地副本（内核页面 → 本地文件夹）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="233" />
      <source>Install git and try again, or choose a local copy.</source>
      <translation>请安装 git 后重试，或者选择一份本地副本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/model.py" line="164" />
      <source>Install git, or choose a local copy of the source (Kernel page → Local folder).</source>
      <translation>请安装 git，或者选择一份本地源码副本（内核页面 → 本地文件夹）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1514" />
      <source>Install into a Python environment you own (a virtual environment: the wizard always builds and installs into one), or give the folder back to your user; on Windows close the programs that use the environment (Python, ComfyUI, an IDE), then try again. Do not build with sudo.</source>
      <translation>请安装到你自己拥有的 Python 环境中（虚拟环境：向导总是在虚拟环境中构建和安装），或把该文件夹的所有权交还给你的用户；在 Windows 上请关闭使用该环境的程序（Python、ComfyUI、IDE），然后重试。不要用 sudo 构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="132" />
      <source>Install it again into the environment the AI program uses now (the wizard's Kernel step; a verified wheel is reused where one fits).</source>
      <translation>请将它重新安装到该 AI 程序现在使用的环境中（向导的“内核”步骤；如有合适的已验证 wheel，会直接复用）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="30" />
      <source>Install it with the system's package manager: sudo apt install python3-pip python3-venv — then click Re-check. Or choose a virtual environment instead.</source>
      <translation>请用系统的包管理器安装它：sudo apt install python3-pip python3-venv — 然后点击“重新检查”。或者改为选择一个虚拟环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="673" />
      <source>Install it: {command}</source>
      <translation>请安装：{command}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="694" />
      <source>Install it: {command} (or choose a version of {kernel} that builds without NVSHMEM).</source>
      <translation>请安装：{command}（或选择一个不需要 NVSHMEM 就能编译的 {kernel} 版本）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="69" />
      <source>Install ninja</source>
      <translation>安装 ninja</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="338" />
      <source>Install ninja into the target environment (pip install ninja) and build only for your GPU's architecture; the wizard does both.</source>
      <translation>把 ninja 安装到目标环境中（pip install ninja），并且只为你的 GPU 架构编译；向导会同时做这两件事。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="24" />
      <source>Install pip</source>
      <translation>安装 pip</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="154" />
      <source>Install pip first.</source>
      <translation>请先安装 pip。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="33" />
      <source>Install pip with the package manager of the system this Python came from, or choose another Python environment.</source>
      <translation>请用这个 Python 所属系统的包管理器安装 pip，或者另选一个 Python 环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="91" />
      <source>Install the Build Tools' recommended parts (they include the Windows SDK).</source>
      <translation>请安装 Build Tools 推荐的组件（其中包括 Windows SDK）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="102" />
      <source>Install the C++ compiler first (C++ compiler row).</source>
      <translation>请先安装 C++ 编译器（“C++ 编译器”一行）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="81" />
      <source>Install the CUDA toolkit first (CUDA toolkit row).</source>
      <translation>请先安装 CUDA 工具包（“CUDA 工具包”一行）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="352" />
      <source>Install the CUDA toolkit that matches PyTorch's CUDA version, or install the PyTorch build that matches your toolkit. The wizard's "CUDA toolkit" prerequisite shows both versions (`python -m app --headless check` in a terminal).</source>
      <translation>安装与 PyTorch 的 CUDA 版本一致的 CUDA 工具包，或者安装与你的工具包一致的 PyTorch 版本。向导的“CUDA 工具包”前置条件会显示这两个版本（也可以在终端中运行 `python -m app --headless check`）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="319" />
      <source>Install the NVIDIA driver for your GPU (nvidia.com/drivers), restart, and run the wizard again. On WSL2, install the driver on Windows, not inside Linux. Without a GPU you can still build and verify the CPU probe kernel.</source>
      <translation>请为你的 GPU 安装 NVIDIA 驱动（nvidia.com/drivers），重启后再运行本向导。在 WSL2 中，请在 Windows 上安装驱动，而不是在 Linux 里。没有 GPU 时，你仍然可以编译并验证 CPU 版的探测内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="202" />
      <source>Install the NVIDIA driver to run kernels on this computer.</source>
      <translation>请安装 NVIDIA 驱动，才能在这台电脑上运行内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="542" />
      <source>Install the PyTorch build that fits this computer into it: {where}.</source>
      <translation>请向它安装适合这台电脑的 PyTorch 版本：{where}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="277" />
      <source>Install the PyTorch that fits the driver (Fix), or update the NVIDIA driver.</source>
      <translation>请安装适合驱动的 PyTorch（修复），或者更新 NVIDIA 驱动。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1999" />
      <source>Install the PyTorch version {package} asks for (its requirements or README name it), or a version of {package} made for the PyTorch you have, then build again.</source>
      <translation>请安装 {package} 所要求的 PyTorch 版本（其依赖要求或 README 中写明了版本），或安装为你现有 PyTorch 制作的 {package} 版本，然后重新构建。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1184" />
      <source>Install the Windows 10/11 SDK with the "Desktop development with C++" workload of the Visual Studio Build Tools (the wizard can: the Fix of its "C++ compiler" prerequisite, or `python -m app --headless fix compiler`), and build inside the Visual Studio developer environment (vcvars64.bat), which the wizard sets up for its builds.</source>
      <translation>通过 Visual Studio Build Tools 的“使用 C++ 的桌面开发”工作负载安装 Windows 10/11 SDK（向导可以代劳：使用“C++ 编译器”前置条件的“修复”，或运行 `python -m app --headless fix compiler`），并在 Visual Studio 开发者环境（vcvars64.bat）中编译，向导编译时会设置好这个环境。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1143" />
      <source>Install the build requirements into the target environment first (pip install packaging wheel psutil ninja setuptools), then build again with --no-build-isolation; the wizard installs them before building.</source>
      <translation>先把编译依赖安装到目标环境中（pip install packaging wheel psutil ninja setuptools），然后用 --no-build-isolation 重新编译；向导会在编译前安装它们。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1112" />
      <source>Install the development files for this Python: on Linux the python3.X-dev (Debian/Ubuntu) or python3.X-devel (Fedora) package of the same version; for an embedded Python on Windows copy the include and libs folders of a regular Python installation of the same version into the python_embeded folder. A regular Python or venv as the target environment avoids the problem.</source>
      <translation>安装这个 Python 的开发文件：在 Linux 上安装相同版本的 python3.X-dev（Debian/Ubuntu）或 python3.X-devel（Fedora）软件包；对于 Windows 上的嵌入式 Python，把相同版本的常规 Python 安装中的 include 和 libs 文件夹复制到 python_embeded 文件夹中。用常规 Python 或 venv 作为目标环境可以避免这个问题。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="237" />
      <source>Install the full Python {version} from python.org (it has them) and use that instead.</source>
      <translation>请从 python.org 安装完整的 Python {version}（它带有这些文件），并改用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="1001" />
      <source>Install the kernel or finish without installing first.</source>
      <translation>请先安装内核，或选择不安装直接完成。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="599" />
      <source>Install the kernel's wheel made for this system (its CUDA, PyTorch and Python versions) or build the kernel on this machine with the toolkit and libraries installed here (the wizard does), or install the library version it needs; check that LD_LIBRARY_PATH / PATH do not put another copy of {what} first.</source>
      <translation>请安装为本系统（其 CUDA、PyTorch 和 Python 版本）构建的内核 wheel，或在本机用这里安装的工具包和库构建内核（向导就是这样做的），或安装它需要的库版本；并检查 LD_LIBRARY_PATH / PATH 没有把 {what} 的另一个副本排在前面。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="501" />
      <source>Install the latest Microsoft Visual C++ Redistributable for Visual Studio 2015-2022 (x64) from Microsoft's website and restart the program. If PyTorch still does not load, reinstall PyTorch in this environment (the build for your CUDA version from pytorch.org).</source>
      <translation>请从微软官网安装最新的 Microsoft Visual C++ 可再发行组件（Visual Studio 2015-2022，x64），然后重新启动程序。如果 PyTorch 仍然无法加载，请在此环境中重新安装 PyTorch（从 pytorch.org 选择与你的 CUDA 版本对应的构建）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1728" />
      <source>Install the version of {tool} that {package} asks for (its requirements name it; often upgrading both together), then try again.</source>
      <translation>请安装 {package} 所要求的 {tool} 版本（其依赖要求中写明了版本；通常需要同时升级两者），然后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="150" />
      <source>Install the wheel verified with PyTorch {torch} from the wizard's cache (verified on {date}): no compiling.</source>
      <translation>从向导缓存中安装已在 PyTorch {torch} 上验证过的 wheel（验证于 {date}）：无需编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="89" />
      <source>Install {package} {version}</source>
      <translation>安装 {package} {version}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="214" />
      <source>Install {tool} (or put its folder on PATH for the build), then build again. For its own builds the wizard finds the C++ compiler, CUDA's nvcc, ninja and git itself and says what is missing on its Prerequisites page.</source>
      <translation>请安装 {tool}（或者把它所在的文件夹加入编译使用的 PATH），然后重新编译。向导自己编译时会自行查找 C++ 编译器、CUDA 的 nvcc、ninja 和 git，并在“前置条件”页面说明缺少什么。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="70" />
      <source>Install {torch}</source>
      <translation>安装 {torch}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="71" />
      <source>Install {torch} and ninja</source>
      <translation>安装 {torch} 和 ninja</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="107" />
      <source>Installed MSVC toolsets: {toolsets}.</source>
      <translation>已安装的 MSVC 工具集：{toolsets}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="81" />
      <source>Installed pip into {python}.</source>
      <translation>已将 pip 安装到 {python}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="417" />
      <source>Installed {what} into {python}.</source>
      <translation>已将 {what} 安装到 {python}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="25" />
      <source>Installing pip was cancelled.</source>
      <translation>pip 的安装已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="507" />
      <source>Installing {name} failed, and the environment could not be put back as it was.</source>
      <translation>安装 {name} 失败，而且无法把环境恢复原状。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="393" />
      <source>Installing {what} was cancelled.</source>
      <translation>{what} 的安装已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="447" />
      <source>Installing {wheel} did not finish; the environment was restored.</source>
      <translation>安装 {wheel} 没有完成；环境已恢复原状。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="458" />
      <source>Installing {wheel} failed; the environment was restored.</source>
      <translation>安装 {wheel} 失败；环境已恢复原状。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="85" />
      <source>Installs the CUDA {cuda} toolkit (compiler and libraries, no driver) from NVIDIA's package repository ({reason}). Needs sudo: run the commands yourself.</source>
      <translation>从 NVIDIA 的软件包仓库安装 CUDA {cuda} 工具包（编译器和库，不含驱动）（{reason}）。需要 sudo：请自己运行这些命令。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="167" />
      <source>Installs the GNU C and C++ compilers with the system package manager (needs sudo; run the command yourself).</source>
      <translation>用系统的包管理器安装 GNU C 和 C++ 编译器（需要 sudo；请自己运行命令）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/invokeai.toml" />
      <source>InvokeAI chooses attention with attention_type in invokeai.yaml (auto, normal, xformers, sliced, torch-sdp); this kernel is not one of its choices.</source>
      <translation>InvokeAI 用 invokeai.yaml 中的 attention_type 选择注意力实现（auto、normal、xformers、sliced、torch-sdp）；这个内核不在可选项中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="153" />
      <source>It changes nothing; run it again whenever you like.</source>
      <translation>这不会改变任何东西；你随时可以再运行一次。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="68" />
      <source>It contains {member}, a device file or pipe, which a source archive never holds.</source>
      <translation>它包含 {member}，这是一个设备文件或管道，源代码压缩包中不会有这类文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="70" />
      <source>It contains {member}, {why}, which would be written outside the source folder.</source>
      <translation>它包含 {member}（{why}），会被写到源码文件夹之外。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/nvml_record.py" line="261" />
      <source>It could not be read: {error}.</source>
      <translation>无法读取它：{error}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="218" />
      <source>It has neither a setup.py nor a pyproject.toml.</source>
      <translation>其中既没有 setup.py，也没有 pyproject.toml。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/nvml_record.py" line="269" />
      <source>It is JSON, but not an NVML recording (it has no "calls").</source>
      <translation>它是 JSON 文件，但不是 NVML 记录（其中没有 "calls"）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/nvml_record.py" line="267" />
      <source>It is JSON, but not an NVML recording: {problem}.</source>
      <translation>它是 JSON，但不是 NVML 记录：{problem}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/nvml_record.py" line="265" />
      <source>It is not a JSON file, so not a recording written by 'detect --record'.</source>
      <translation>它不是 JSON 文件，因此不是由 'detect --record' 写出的记录。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/nvml_record.py" line="263" />
      <source>It is not a text file.</source>
      <translation>它不是文本文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="304" />
      <source>It is not installed yet: your Python environment is unchanged.</source>
      <translation>它还没有安装：你的 Python 环境没有改动。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="77" />
      <source>It replaces the PyTorch installed there now.</source>
      <translation>它会替换那里现在安装的 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/statefile.py" line="76" />
      <source>It was kept aside as {name}; nothing was deleted.</source>
      <translation>它已另存为 {name}；没有删除任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="94" />
      <source>It was made from commit {made_from}; the recipe expects {commit} ({ref}).</source>
      <translation>它由提交 {made_from} 生成；配方要求的是 {commit}（{ref}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="127" />
      <source>It was made from {made_from}; {name} pins {commit}.</source>
      <translation>它由 {made_from} 生成；{name} 固定的是 {commit}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="110" />
      <source>Its .gitmodules file has no entry for that folder.</source>
      <translation>它的 .gitmodules 文件中没有这个文件夹的条目。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="91" />
      <source>Its host_config.h could not be read: {error}</source>
      <translation>无法读取它的 host_config.h：{error}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/statefile.py" line="79" />
      <source>Its previous copy was used instead.</source>
      <translation>已改用它的上一份副本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="194" />
      <source>Its setup.py reads files from the folder above it (the repository root), so the whole repository is needed.</source>
      <translation>它的 setup.py 会读取上一级文件夹（仓库根目录）中的文件，因此需要整个仓库。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="138" />
      <source>Its verification had passed.</source>
      <translation>它当时通过了验证。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="140" />
      <source>Its verification had {status}.</source>
      <translation>它当时的验证结果：{status}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="576" />
      <source>JAX (jaxlib) loads the NVIDIA libraries it was built against (cuDNN, cuBLAS, the CUDA runtime) when it first uses the GPU, and {what} was not found, or the copy found first is older than the one JAX needs; JAX then runs on the CPU only.</source>
      <translation>JAX（jaxlib）在第一次使用 GPU 时加载它构建时所用的 NVIDIA 库（cuDNN、cuBLAS、CUDA 运行时），而 {what} 没有找到，或先找到的那份比 JAX 需要的版本旧；于是 JAX 只在 CPU 上运行。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="576" />
      <source>JAX's GPU backend did not start: {what} is missing or older than JAX needs</source>
      <translation>JAX 的 GPU 后端没有启动：{what} 缺失，或比 JAX 需要的版本旧</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="582" />
      <source>Kernels can still be built; to verify them on the GPU, check the NVIDIA driver (see the GPU table) and that the driver supports CUDA {cuda}.</source>
      <translation>仍然可以编译内核；如果要在 GPU 上验证它们，请检查 NVIDIA 驱动（见 GPU 表格），并确认驱动支持 CUDA {cuda}。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/kohya_ss.toml" />
      <source>Kohya's GUI picks attention per training run (CrossAttention: xformers or sdpa in the training parameters); this kernel is not one of its choices.</source>
      <translation>Kohya's GUI 在每次训练时选择注意力实现（训练参数中的 CrossAttention：xformers 或 sdpa）；这个内核不在可选项中。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/speed/workloads.toml" />
      <source>LLM prompts</source>
      <translation>LLM 提示词</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1023" />
      <source>Leave {arch} out of the architectures the build asks for ({arch_setting}) and build for your own GPU's architecture; if your GPU is of that generation, use CUDA 12.x (the newest CUDA that still compiles for it) with a PyTorch made for it.</source>
      <translation>请从构建要求的架构中去掉 {arch}（{arch_setting}），只为你自己的 GPU 架构构建；如果你的 GPU 正是这一代，请使用 CUDA 12.x（仍支持为它编译的最新 CUDA）以及为其构建的 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1006" />
      <source>Leave {arch} out of the architectures the build asks for ({arch_setting}, or the list in the kernel's setup.py or CMakeLists.txt) and build for your own GPU's architecture; the wizard sets it from the detected GPU.</source>
      <translation>从构建所要求的架构中去掉 {arch}（{arch_setting}，或内核 setup.py、CMakeLists.txt 中的列表），只为你自己的 GPU 架构构建；向导会根据检测到的 GPU 自动设置。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="431" />
      <source>Let git use long paths</source>
      <translation>让 git 使用长路径</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="14" />
      <source>Long paths</source>
      <translation>长路径</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="82" />
      <source>Long paths are on for Windows and git. The build folder path is short.</source>
      <translation>Windows 和 git 的长路径都已开启。编译文件夹的路径很短。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="84" />
      <source>Long paths are on in Windows. The build folder path is short.</source>
      <translation>Windows 的长路径已开启。编译文件夹的路径很短。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="59" />
      <source>Long paths are on, but Windows has not restarted since, so programs do not see it yet.</source>
      <translation>长路径已开启，但之后 Windows 还没有重启，所以程序还看不到它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="551" />
      <source>Long paths are turned on; Windows must restart before programs can use them.</source>
      <translation>长路径已开启；Windows 必须重启后程序才能使用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="50" />
      <source>LongPathsEnabled ({key}): {value}</source>
      <translation>LongPathsEnabled（{key}）：{value}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="48" />
      <source>LongPathsEnabled ({key}): {value} (could not be read: {error})</source>
      <translation>LongPathsEnabled（{key}）：{value}（无法读取：{error}）</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="908" />
      <source>Look at the first error the wizard highlights above this line; it names the real problem.</source>
      <translation>查看向导在这一行之前标出的第一个错误；它指出了真正的问题。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="56" />
      <source>MAX_JOBS for most PyTorch extensions</source>
      <translation>大多数 PyTorch 扩展使用 MAX_JOBS</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>MAX_JOBS is not set automatically by this version; nvcc uses 4 threads per job, fixed (NVCC_THREADS not read); builds sm_80 and sm_90 (with nvcc &gt;= 11.8) only: no Blackwell</source>
      <translation>该版本不会自动设置 MAX_JOBS；nvcc 每个任务固定使用 4 个线程（不读取 NVCC_THREADS）；只编译 sm_80 和 sm_90（需要 nvcc &gt;= 11.8）：不支持 Blackwell</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="72" />
      <source>MAX_JOBS, and NVCC_THREADS for FlashAttention's compiler threads</source>
      <translation>MAX_JOBS，以及控制 FlashAttention 编译线程数的 NVCC_THREADS</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flashmla.toml" />
      <source>MSVC rejects __attribute__((always_inline)) on lambdas (csrc/sm90/prefill/sparse/phase1.cuh), the __int128_t type (sm90 sparse decode and shared helper headers) and the compound literals in csrc/sm90/decode/dense/splitkv_mla.cuh, and CUTLASS needs /Zc:__cplusplus, which FlashMLA's setup.py does not pass</source>
      <translation>MSVC 不接受 lambda 上的 __attribute__((always_inline))（csrc/sm90/prefill/sparse/phase1.cuh）、__int128_t 类型（sm90 稀疏解码及共享辅助头文件）以及 csrc/sm90/decode/dense/splitkv_mla.cuh 中的复合字面量，而且 CUTLASS 需要 /Zc:__cplusplus，但 FlashMLA 的 setup.py 没有传入它</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flashmla.toml" />
      <source>MSVC rejects the __int128_t type used in the sm100 decode kernels (csrc/sm100/decode/head64/kernel.cuh) and in shared helper headers, and CUTLASS needs /Zc:__cplusplus, which FlashMLA's setup.py does not pass</source>
      <translation>MSVC 不接受 sm100 解码内核（csrc/sm100/decode/head64/kernel.cuh）和共享辅助头文件中使用的 __int128_t 类型，而且 CUTLASS 需要 /Zc:__cplusplus，但 FlashMLA 的 setup.py 没有传入它</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="137" />
      <source>MSVC {toolset} fits CUDA {cuda} and will be used.</source>
      <translation>MSVC {toolset} 与 CUDA {cuda} 匹配，将会使用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="134" />
      <source>MSVC {toolset} fits CUDA {cuda} and will be used. The newer MSVC {skipped} (also installed) is skipped: CUDA {cuda} rejects it.</source>
      <translation>MSVC {toolset} 与 CUDA {cuda} 匹配，将会使用它。更新的 MSVC {skipped}（也已安装）被跳过：CUDA {cuda} 不接受它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1328" />
      <source>Make sure PyTorch, the CUDA toolkit and the kernel's dependencies are the versions the kernel expects, delete the build folder, and build again; the symbol names in the error say which library is involved.</source>
      <translation>确保 PyTorch、CUDA 工具包和内核的依赖都是内核所需的版本，删除编译文件夹，然后重新编译；错误中的符号名称会说明涉及哪个库。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="48" />
      <source>Make sure the build drive has 25 GB free.</source>
      <translation>请确保编译所在的驱动器有 25 GB 可用空间。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="85" />
      <source>Make sure the installed wheel fits this Python, PyTorch and CUDA (reinstall the wheel made for them, or rebuild it against the PyTorch installed now), and import torch before the package.</source>
      <translation>请确认已安装的 wheel 与当前的 Python、PyTorch 和 CUDA 相符（重新安装为它们构建的 wheel，或针对当前安装的 PyTorch 重新构建），并在导入该软件包之前先导入 torch。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1555" />
      <source>Make the build use {tool} {required} (install it, or select it if it is installed), or choose a version of {package} made for the one you have, then build again. The wizard's prerequisite checks show which versions are in use.</source>
      <translation>请让构建使用 {tool} {required}（安装它，或在已安装时选中它），或选择为你现有版本制作的 {package} 版本，然后重新构建。向导的前提条件检查会显示正在使用的版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="277" />
      <source>Make the drive writable, or {alternative}.</source>
      <translation>请让该驱动器可写，或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="547" />
      <source>Make the kernel and its libraries fit: install the kernel's wheel made for this system, or build the kernel on this machine with the libraries installed here (the wizard does); check that LD_LIBRARY_PATH / PATH do not put another copy of the library that provides {symbol} first.</source>
      <translation>请让内核与其所用的库相匹配：安装为本系统构建的内核 wheel，或在本机用这里安装的库构建内核（向导就是这样做的）；并检查 LD_LIBRARY_PATH / PATH 没有把提供 {symbol} 的库的另一个副本排在前面。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="79" />
      <source>Memory: {available} available of {total}; {cores} logical CPU cores</source>
      <translation>内存：可用 {available}，共 {total}；{cores} 个逻辑 CPU 核心</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="228" />
      <source>Missing: {files}. Embedded Pythons (ComfyUI portable, python.org's embeddable zip) come without them.</source>
      <translation>缺少：{files}。嵌入式 Python（ComfyUI 便携版、python.org 的 embeddable ZIP 包）没有附带它们。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/report.py" line="53" />
      <source>NOT RUN</source>
      <translation>未运行</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/matcher.py" line="1378" />
      <source>NVIDIA CUDA does not exist on a Mac: no CUDA toolkit, CUDA_HOME or CUDA build of PyTorch can be installed there. Use {package}'s CPU or Apple GPU (MPS) path if it has one (often a setting or a requirements file for macOS), or build and run it on a Linux or Windows computer with an NVIDIA GPU.</source>
      <translation>Mac 上没有 NVIDIA CUDA：无法在其上安装 CUDA 工具包、设置 CUDA_HOME 或安装 CUDA 版 PyTorch。如果 {package} 有 CPU 或 Apple GPU（MPS）路径，请使用它（通常是一个设置项或针对 macOS 的 requirements 文件）；否则请在装有 NVIDIA GPU 的 Linux 或 Windows 电脑上构建和运行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="67" />
      <source>NVIDIA GPU</source>
      <translation>NVIDIA GPU</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="289" />
      <source>NVIDIA driver</source>
      <translation>NVIDIA 驱动</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/matcher.py" line="1369" />
      <source>NVIDIA's CUDA packages (and PyTorch's CUDA builds) are made for 64-bit systems only, and this conda or Python is 32-bit (its channels end in -32). Install the 64-bit Miniconda or Python, make a new environment with it, and install {package} there.</source>
      <translation>NVIDIA 的 CUDA 软件包（以及 PyTorch 的 CUDA 版本）只为 64 位系统提供，而这个 conda 或 Python 是 32 位的（它的频道以 -32 结尾）。请安装 64 位的 Miniconda 或 Python，用它创建一个新环境，再在其中安装 {package}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="619" />
      <source>Newest installer log: {log}</source>
      <translation>最新的安装程序日志：{log}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="342" />
      <source>Next step: {advice}</source>
      <translation>下一步：{advice}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="111" />
      <source>No C++ compiler: Visual Studio Build Tools are not installed.</source>
      <translation>没有 C++ 编译器：没有安装 Visual Studio Build Tools。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="182" />
      <source>No C++ compiler: gcc and g++ is not installed.</source>
      <translation>没有 C++ 编译器：没有安装 gcc 和 g++。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="180" />
      <source>No C++ compiler: {program} is not installed.</source>
      <translation>没有 C++ 编译器：没有安装 {program}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="152" />
      <source>No CUDA toolkit is installed.</source>
      <translation>没有安装 CUDA 工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="155" />
      <source>No CUDA toolkit is installed; without an NVIDIA GPU and a CUDA build of PyTorch only the CPU probe kernel can be built.</source>
      <translation>没有安装 CUDA 工具包；没有 NVIDIA GPU 和 CUDA 版本的 PyTorch 时，只能编译探测内核的 CPU 部分。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="580" />
      <source>No CUDA toolkit is selected yet: building {kernel} needs CUDA {need} or newer{why}, version {major}.x to match PyTorch.</source>
      <translation>尚未选择 CUDA 工具包：编译 {kernel} 需要 CUDA {need} 或更新版本{why}，且须为 {major}.x 版本以与 PyTorch 匹配。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="553" />
      <source>No CUDA toolkit is selected yet: building {kernel} needs one of version {major}.x to match PyTorch.</source>
      <translation>尚未选择 CUDA 工具包：编译 {kernel} 需要 {major}.x 版本的工具包，以与 PyTorch 匹配。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="374" />
      <source>No CUDA toolkit was found</source>
      <translation>没有找到 CUDA 工具包</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="120" />
      <source>No CUDA version fits your driver, GPU and PyTorch together: update the NVIDIA driver first, or see {page}.</source>
      <translation>没有哪个 CUDA 版本能同时适合你的驱动、GPU 和 PyTorch：请先更新 NVIDIA 驱动，或者参见 {page}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="371" />
      <source>No GPU is selected.</source>
      <translation>没有选择 GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="124" />
      <source>No GPU is selected; the {kernel} builds its CPU part. Select a GPU to see which libraries fit.</source>
      <translation>没有选择 GPU；{kernel} 会编译它的 CPU 部分。选择一个 GPU 即可看到哪些库适合。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="374" />
      <source>No NVIDIA GPU detected.</source>
      <translation>未检测到 NVIDIA GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="376" />
      <source>No NVIDIA GPU detected: {problem}</source>
      <translation>未检测到 NVIDIA GPU：{problem}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="200" />
      <source>No NVIDIA driver answered, so whether it supports this CUDA is unknown; kernels can be built here but not run or verified.</source>
      <translation>没有 NVIDIA 驱动回答，所以不知道它是否支持这个 CUDA；这里可以编译内核，但无法运行或验证。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="318" />
      <source>No NVIDIA driver was found on this computer.</source>
      <translation>这台电脑上没有找到 NVIDIA 驱动。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="369" />
      <source>No Python environment has been chosen yet.</source>
      <translation>还没有选择 Python 环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="173" />
      <source>No Python environment is chosen for the kernel.</source>
      <translation>还没有为内核选择 Python 环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="46" />
      <source>No failure found in this log.</source>
      <translation>此日志中没有发现失败。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="119" />
      <source>No installed MSVC version is accepted by CUDA {cuda}.</source>
      <translation>CUDA {cuda} 不接受任何已安装的 MSVC 版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="643" />
      <source>No prebuilt {kernel} {version} wheel matches this environment.</source>
      <translation>没有与此环境匹配的 {kernel} {version} 预编译 wheel。</translation>
    </message>
    <message>
      <source>No ready-made flash-attn wheel for this setup; building from source</source>
      <translation type="obsolete">没有适合这套配置的现成 flash-attn wheel；改为从源码编译</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="485" />
      <source>No ready-made wheel of {package} for this setup; building from source</source>
      <translation>没有适合当前配置的 {package} 现成 wheel；改为从源码编译</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="52" />
      <source>No shortcut was made.</source>
      <translation>没有创建快捷方式。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/model.py" line="161" />
      <source>No source archive address is known for {url}.</source>
      <translation>不知道 {url} 的源码压缩包地址。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="132" />
      <source>No {package} is installed, and which version PyTorch {torch} needs is not known to the wizard.</source>
      <translation>未安装 {package}，且向导不知道 PyTorch {torch} 需要哪个版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="127" />
      <source>None of the libraries fits {gpus} yet (select one to see why); the {kernel} proves the toolchain works in a few minutes.</source>
      <translation>目前没有一个库适合{gpus}（选中一个库可查看原因）；{kernel} 能在几分钟内证明工具链可以正常工作。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="632" />
      <source>Not checked by the wizard: {item}.</source>
      <translation>本向导不检查：{item}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="117" />
      <source>Not checked: Triton was not looked for in this environment.</source>
      <translation>未检查：未在此环境中查找 Triton。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="454" />
      <source>Not comparable here: the methods PyTorch ran on this GPU are not those {name} was measured against.</source>
      <translation>此处无法比较：PyTorch 在这块 GPU 上能运行的方法与 {name} 实测时对比的方法不同。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="88" />
      <source>Not compared: the last passing verification ({when}) ran none of the checks this one ran.</source>
      <translation>未比较：上次通过的验证（{when}）没有运行本次运行的任何检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="86" />
      <source>Not compared: this verification ran no check to compare with the last passing one ({when}).</source>
      <translation>未比较：本次验证没有运行可与上次通过的验证（{when}）比较的检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="231" />
      <source>Not every pair of GPUs is connected with NVLink (no NVLink between {pairs}); they talk over PCIe.</source>
      <translation>并非每对 GPU 都通过 NVLink 连接（{pairs} 之间没有 NVLink）；它们通过 PCIe 通信。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="481" />
      <source>Not expected to pay off: PyTorch's own {method} attention is about {x}× faster on this GPU ({best} ms; {name} about {expected} ms at {shape}). You can still build it, e.g. for a program that calls it directly.</source>
      <translation>预计不值得构建：在这块 GPU 上 PyTorch 自带的 {method} 注意力约快 {x} 倍（{best} 毫秒；{name} 在 {shape} 下约 {expected} 毫秒）。你仍然可以构建它，例如给直接调用它的程序使用。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="445" />
      <source>Not measured on {family} GPUs yet: whether it beats PyTorch's own attention here is not known. PyTorch's fastest method here ({method}) takes {ms} ms at {shape} ({tflops} TFLOPs).</source>
      <translation>尚未在 {family} GPU 上实测：不知道它在这里是否比 PyTorch 自带的注意力更快。此处 PyTorch 最快的方法（{method}）在 {shape} 下用时 {ms} 毫秒（{tflops} TFLOPs）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="36" />
      <source>Not needed here: this system has no 260-character path limit.</source>
      <translation>这里不需要：这个系统没有 260 个字符的路径限制。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="82" />
      <source>Not needed: no CUDA toolkit and no GPU, so only the CPU probe kernel can be built.</source>
      <translation>不需要：没有 CUDA 工具包，也没有 GPU，所以只能编译探测内核的 CPU 部分。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="250" />
      <source>Not sure this CUDA supports {which}.</source>
      <translation>不确定这个 CUDA 是否支持 {which}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/view.py" line="45" />
      <source>Notes:</source>
      <translation>备注：</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="152" />
      <source>Nothing changed since the last passing verification.</source>
      <translation>自上次通过验证以来没有变化。</translation>
    </message>
    <message>
      <source>Nothing is broken. To skip the download attempt next time, build with FLASH_ATTENTION_FORCE_BUILD=TRUE (the wizard can retry that way).</source>
      <translation type="obsolete">没有出错。如果下次想跳过下载尝试，可以设置 FLASH_ATTENTION_FORCE_BUILD=TRUE 再编译（向导可以这样自动重试）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="485" />
      <source>Nothing is broken. To skip the download attempt next time, build with {force_build} (the wizard can retry that way for the kernels it knows).</source>
      <translation>没有出问题。要在下次跳过下载尝试，请使用 {force_build} 编译（对于向导已知的内核，它可以这样自动重试）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="158" />
      <source>Nothing to check yet: this wizard has not installed a kernel.</source>
      <translation>暂时没有可检查的内容：本向导还没有安装过内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="83" />
      <source>Nothing to check.</source>
      <translation>没有需要检查的内容。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="871" />
      <source>Nothing to roll back: nothing was installed in this session.</source>
      <translation>没有可回滚的内容：本次会话没有安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="759" />
      <source>Nothing to verify: there is no built wheel for these choices.</source>
      <translation>没有可验证的内容：这些选择还没有编译好的 wheel。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/cli/consent.py" line="97" />
      <source>Nothing was changed: you answered no.</source>
      <translation>什么都没有改变：你回答了“否”。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="36" />
      <source>Nothing was installed: your Python environment is as it was.</source>
      <translation>没有安装任何东西：你的 Python 环境保持原样。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="93" />
      <source>Nothing was kept; start the download again, or build from source instead.</source>
      <translation>没有保留任何内容；请重新开始下载，或者改为从源码编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/cli/consent.py" line="83" />
      <source>Nothing was run. {change} The wizard asks before it changes an environment or the system, but there is no terminal to ask in (standard input is not a terminal).</source>
      <translation>什么都没有运行。{change}向导在更改环境或系统之前会先询问，但这里没有可以询问的终端（标准输入不是终端）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="780" />
      <source>NuGet publishes no SHA-256 for it that could be checked in advance, so the wizard checks that it is a NuGet package of exactly Python {version} (its include/patchlevel.h) with the files needed</source>
      <translation>NuGet 没有公布可以事先校验的 SHA-256，所以向导会检查它确实是 Python {version} 的 NuGet 包（看它的 include/patchlevel.h），并且含有所需的文件</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1498" />
      <source>On Windows build inside the x64 developer environment of Visual Studio (vcvars64.bat, the x64 Native Tools prompt), which the wizard sets up; elsewhere point nvcc at a supported gcc (CC, CXX and -ccbin / NVCC_CCBIN).</source>
      <translation>在 Windows 上，请在 Visual Studio 的 x64 开发者环境（vcvars64.bat，x64 Native Tools 命令提示符）中构建，向导会设置好它；在其他系统上，请让 nvcc 使用受支持的 gcc（CC、CXX 以及 -ccbin / NVCC_CCBIN）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1946" />
      <source>On Windows, install triton-windows in the version that fits your PyTorch (its page lists them) instead of triton, or leave Triton out if the program runs without it; on Linux, install triton (PyTorch's Linux wheels bring the one they need) instead of triton-windows. Then install the program's other requirements again.</source>
      <translation>在 Windows 上，请安装与你的 PyTorch 相匹配版本的 triton-windows（其页面列出了对应关系）来代替 triton，或者在程序不需要 Triton 时不安装它；在 Linux 上，请安装 triton（PyTorch 的 Linux 版本会带上所需的版本）来代替 triton-windows。然后重新安装程序的其他依赖。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="215" />
      <source>One GPU: no GPU-to-GPU connection to check ({links} NVLink links active).</source>
      <translation>只有一个 GPU：没有 GPU 之间的连接需要检查（{links} 条 NVLink 链路处于活动状态）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="217" />
      <source>One GPU: no GPU-to-GPU connection to check.</source>
      <translation>只有一个 GPU：没有 GPU 之间的连接需要检查。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="146" />
      <source>One of its files is packed {ratio} to 1, as only a damaged or hostile archive is.</source>
      <translation>其中一个文件的压缩比为 {ratio} 比 1，只有损坏或恶意的压缩包才会这样。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="908" />
      <source>One of the compile steps failed, so ninja stopped the build. This line is only the consequence; the actual error is further up in the log.</source>
      <translation>其中一个编译步骤失败了，所以 ninja 停止了编译。这一行只是后果；真正的错误在日志更靠前的地方。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="42" />
      <source>Only https:// addresses are supported.</source>
      <translation>只支持 https:// 地址。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="50" />
      <source>Only {free} free on the build drive: not even the small probe kernel fits.</source>
      <translation>编译所在的驱动器只有 {free} 可用：连小小的探测内核都放不下。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="54" />
      <source>Only {free} free on the build drive; the big kernels need at least {least} GB to build.</source>
      <translation>编译所在的驱动器只有 {free} 可用；大的内核至少需要 {least} GB 才能编译。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/open-webui.toml" />
      <source>Open WebUI does not run models in its own Python: a kernel installed here is not used by it. Install the kernel into the Python of the model server it talks to.</source>
      <translation>Open WebUI 不在它自己的 Python 中运行模型：装在这里的内核不会被它使用。请把内核安装到它所连接的模型服务器的 Python 中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="104" />
      <source>Open the Visual Studio Installer and repair it, or let the wizard install the Build Tools.</source>
      <translation>请打开 Visual Studio Installer 修复它，或者让向导安装 Build Tools。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="236" />
      <source>Or install 'Desktop development with C++' from the Visual Studio Installer yourself.</source>
      <translation>或者自己从 Visual Studio Installer 安装“使用 C++ 的桌面开发”。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/report.py" line="51" />
      <source>PASS</source>
      <translation>通过</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="82" />
      <source>Parallelism for FlashAttention-sized builds: {reason}. Lighter kernels run more jobs at once.</source>
      <translation>FlashAttention 规模的编译的并行度：{reason}。较轻的内核会同时运行更多任务。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/nvml_record.py" line="271" />
      <source>Pass a file written by 'detect --record FILE'.</source>
      <translation>请传入由 'detect --record FILE' 写出的文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="44" />
      <source>Put “{name}” on the desktop ({path}).</source>
      <translation>已将“{name}”放到桌面上（{path}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="67" />
      <source>PyTorch (CPU build)</source>
      <translation>PyTorch（CPU 版本）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="53" />
      <source>PyTorch built for CUDA {cuda} (from {url}, the newest CUDA your driver supports)</source>
      <translation>为 CUDA {cuda} 构建的 PyTorch（来自 {url}，你的驱动支持的最新 CUDA）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="297" />
      <source>PyTorch cannot use the GPU right now, so kernels can be built but not verified.</source>
      <translation>PyTorch 现在无法使用 GPU，所以可以编译内核，但无法验证。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="374" />
      <source>PyTorch could not find a CUDA toolkit: none is installed, the CUDA_HOME/CUDA_PATH variable is not set, or the installed PyTorch is a CPU-only build (which never looks for CUDA).</source>
      <translation>PyTorch 找不到 CUDA 工具包：没有安装，没有设置 CUDA_HOME/CUDA_PATH 变量，或者安装的 PyTorch 是仅 CPU 版本（它从不查找 CUDA）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="142" />
      <source>PyTorch does not import in {python} any more</source>
      <translation>PyTorch 在 {python} 中已无法导入</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="49" />
      <source>PyTorch from PyPI (the driver is too old for every CUDA build the wizard knows; updating the NVIDIA driver is better)</source>
      <translation>来自 PyPI 的 PyTorch（驱动对向导知道的所有 CUDA 版本来说都太旧；更新 NVIDIA 驱动会更好）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="120" />
      <source>PyTorch here is a CPU-only build, so no GPU library can be built yet; the {kernel} builds its CPU part and proves the toolchain works.</source>
      <translation>这里的 PyTorch 是仅 CPU 版本，所以暂时无法编译任何 GPU 库；{kernel} 会编译它的 CPU 部分，证明工具链可以正常工作。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="501" />
      <source>PyTorch is a CPU-only build ({version}); {kernel} needs a CUDA build of PyTorch.</source>
      <translation>PyTorch 是仅 CPU 版本（{version}）；{kernel} 需要 CUDA 版本的 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="80" />
      <source>PyTorch is a download of {size}.</source>
      <translation>PyTorch 需要下载 {size}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="274" />
      <source>PyTorch is built for CUDA {cuda}, but the driver supports only CUDA {driver}: PyTorch can't use the GPU.</source>
      <translation>PyTorch 是为 CUDA {cuda} 构建的，但驱动只支持 CUDA {driver}：PyTorch 无法使用 GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="281" />
      <source>PyTorch is built for CUDA {cuda}, newer than the driver's CUDA {driver}; it works through minor version compatibility.</source>
      <translation>PyTorch 是为 CUDA {cuda} 构建的，比驱动的 CUDA {driver} 新；它通过次版本兼容仍然可以工作。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="563" />
      <source>PyTorch is installed here but fails to import.</source>
      <translation>这里装有 PyTorch，但无法导入。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="484" />
      <source>PyTorch is installed in this Python but fails to import.</source>
      <translation>这个 Python 中装有 PyTorch，但无法导入。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="113" />
      <source>PyTorch is not installed in the chosen Python, and every kernel needs it; install it first ({fix}).</source>
      <translation>所选的 Python 中没有安装 PyTorch，而每个内核都需要它；请先安装（{fix}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="485" />
      <source>PyTorch is not installed in this Python.</source>
      <translation>这个 Python 中没有安装 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="247" />
      <source>PyTorch is not installed in this environment.</source>
      <translation>这个环境中没有安装 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="61" />
      <source>PyTorch was not found while building</source>
      <translation>编译时找不到 PyTorch</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="67" />
      <source>PyTorch with CUDA</source>
      <translation>带 CUDA 的 PyTorch</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="124" />
      <source>PyTorch {torch}; {package}: {have}</source>
      <translation>PyTorch {torch}；{package}：{have}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="256" />
      <source>PyTorch {version} here is a CPU-only build, so GPU kernels can't be built for it (the probe kernel's CPU part can).</source>
      <translation>这里的 PyTorch {version} 是仅 CPU 版本，所以无法为它编译 GPU 内核（探测内核的 CPU 部分可以）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="260" />
      <source>PyTorch {version} is a CPU-only build and there is no NVIDIA GPU: only the CPU probe kernel can be built.</source>
      <translation>PyTorch {version} 是仅 CPU 版本，而且没有 NVIDIA GPU：只能编译探测内核的 CPU 部分。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="205" />
      <source>PyTorch {version}, CUDA {cuda}, GPU usable from PyTorch: {usable}, architectures: {archs}</source>
      <translation>PyTorch {version}，CUDA {cuda}，PyTorch 能否使用 GPU：{usable}，GPU 架构：{archs}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="44" />
      <source>PyTorch's CPU build (from {index}): no NVIDIA GPU answered here, so a CUDA build would be of no use. If this computer has an NVIDIA GPU, install its driver first, then check again</source>
      <translation>PyTorch 的 CPU 版本（来自 {index}）：这里没有 NVIDIA GPU 回答，所以 CUDA 版本没有用处。如果这台电脑有 NVIDIA GPU，请先安装它的驱动，然后重新检查</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="79" />
      <source>PyTorch's CPU build is a download of {size}.</source>
      <translation>PyTorch 的 CPU 版本需要下载 {size}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="292" />
      <source>PyTorch's CUDA</source>
      <translation>PyTorch 的 CUDA</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="280" />
      <source>PyTorch's CUDA: {torch}; no NVIDIA driver answered, so the newest CUDA it supports is unknown.</source>
      <translation>PyTorch 的 CUDA：{torch}；没有 NVIDIA 驱动回答，所以不知道它最高支持哪个 CUDA。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="278" />
      <source>PyTorch's CUDA: {torch}; the driver supports CUDA up to {driver}.</source>
      <translation>PyTorch 的 CUDA：{torch}；驱动最高支持 CUDA {driver}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="327" />
      <source>PyTorch's attention could not be timed ({tail}).</source>
      <translation>无法测量 PyTorch 注意力的速度（{tail}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="440" />
      <source>PyTorch's attention could not be timed at these shapes on this GPU.</source>
      <translation>无法在此 GPU 上以这些尺寸为 PyTorch 的注意力计时。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="322" />
      <source>PyTorch's attention could not be timed: {why}</source>
      <translation>无法测量 PyTorch 注意力的速度：{why}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="390" />
      <source>PyTorch's {backend} could not be timed ({why})</source>
      <translation>无法给 PyTorch 的{backend}计时（{why}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="21" />
      <source>Python environment</source>
      <translation>Python 环境</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="533" />
      <source>Python {version} has no pip, so nothing can be installed into it.</source>
      <translation>Python {version} 没有 pip，所以无法向它安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="317" />
      <source>Python {version} starts, but it failed while the wizard looked at what is installed in it ({how}).</source>
      <translation>Python {version} 可以启动，但在向导查看其中安装了什么时失败了（{how}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="580" />
      <source>Python {version} with PyTorch {torch} (CUDA {cuda}), but PyTorch cannot use the GPU right now.</source>
      <translation>Python {version}，装有 PyTorch {torch}（CUDA {cuda}），但 PyTorch 现在无法使用 GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="310" />
      <source>Python {version} with PyTorch {torch} (CUDA {cuda}), pip and ninja.</source>
      <translation>Python {version}，装有 PyTorch {torch}（CUDA {cuda}），pip 和 ninja。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="589" />
      <source>Python {version} with PyTorch {torch} (CUDA {cuda}, 1 GPU usable).</source>
      <translation>Python {version}，装有 PyTorch {torch}（CUDA {cuda}，1 块 GPU 可用）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="308" />
      <source>Python {version} with PyTorch {torch} (CUDA {cuda}, GPU usable), pip and ninja.</source>
      <translation>Python {version}，装有 PyTorch {torch}（CUDA {cuda}，GPU 可用），pip 和 ninja。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="592" />
      <source>Python {version} with PyTorch {torch} (CUDA {cuda}, {count} GPUs usable).</source>
      <translation>Python {version}，装有 PyTorch {torch}（CUDA {cuda}，{count} 块 GPU 可用）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="571" />
      <source>Python {version} with PyTorch {torch}, a CPU-only build: only the CPU probe kernel can be built here.</source>
      <translation>Python {version}，装有 PyTorch {torch}，这是仅 CPU 版本：这里只能编译探测内核的 CPU 部分。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="541" />
      <source>Python {version} without PyTorch.</source>
      <translation>Python {version}，没有 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="552" />
      <source>Python {version} works, but importing {name} crashes it ({how}).</source>
      <translation>Python {version} 可以运行，但导入 {name} 时会崩溃（{how}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="857" />
      <source>Python {version}'s C headers and import library are in place.</source>
      <translation>Python {version} 的 C 头文件和导入库已就位。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="860" />
      <source>Python {version}'s C headers are in place.</source>
      <translation>Python {version} 的 C 头文件已就位。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="200" />
      <source>Python {version}, {bits}-bit; pip {pip}; ninja {ninja}</source>
      <translation>Python {version}，{bits} 位；pip {pip}；ninja {ninja}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="198" />
      <source>Python: {python}</source>
      <translation>Python：{python}</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention.toml" />
      <source>Quantized attention (INT8/FP8) for image, video and language model inference on RTX 30/40/50, A100 and H100: forward only.</source>
      <translation>用于图像、视频和语言模型推理的量化注意力（INT8/FP8），适用于 RTX 30/40/50、A100 和 H100：仅前向。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/parallelism.py" line="80" />
      <source>RAM</source>
      <translation>内存</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/deepep.toml" />
      <source>RDMA network (only for the internode kernels, which the wizard does not verify)</source>
      <translation>RDMA 网络（仅用于跨节点内核，本向导不验证这些内核）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="72" />
      <source>Read the first error line for the library or symbol the linker could not find; make sure that library is installed and is the version the build expects, then build again from a clean build folder.</source>
      <translation>请从第一条错误行找出链接器找不到的库或符号；确认该库已安装且版本符合构建的要求，然后在干净的构建目录中重新构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="92" />
      <source>Read the first error line: the code failed the first time it ran. "No kernel image" or "not supported" means PyTorch or the kernel has no code for your GPU's architecture (its compute capability): when PyTorch warns that the GPU "is not compatible with the current PyTorch installation", install a PyTorch build that supports it, else the kernel was not built for it or does not support that GPU; "driver version is insufficient" means the NVIDIA driver is older than the CUDA it was built with; "Torch not compiled with CUDA" means a PyTorch without CUDA; a compiler or build error means the code compiles itself on first use and needs the C++ compiler and CUDA toolkit it names.</source>
      <translation>请阅读第一条错误行：代码在第一次运行时失败。“No kernel image”或“not supported”表示 PyTorch 或内核中没有适用于你的 GPU 架构（计算能力）的代码：如果 PyTorch 警告这块 GPU“is not compatible with the current PyTorch installation”，请安装支持它的 PyTorch 版本；否则是内核没有针对它构建，或者不支持这块 GPU；“driver version is insufficient”表示 NVIDIA 驱动比构建它所用的 CUDA 旧；“Torch not compiled with CUDA”表示安装的 PyTorch 不带 CUDA；如果是编译器或构建错误，说明这段代码在第一次使用时才自行编译，需要错误中提到的 C++ 编译器和 CUDA 工具包。</translation>
    </message>
    <message>
      <source>Read the first error line: the code failed the first time it ran. "No kernel image" or "not supported" means it was not built for your GPU's architecture (its compute capability) or does not support that GPU; "driver version is insufficient" means the NVIDIA driver is older than the CUDA it was built with; "Torch not compiled with CUDA" means a PyTorch without CUDA; a compiler or build error means the code compiles itself on first use and needs the C++ compiler and CUDA toolkit it names.</source>
      <translation type="obsolete">请阅读第一条错误行：代码在第一次运行时失败。“No kernel image”或“not supported”表示它不是针对你的 GPU 架构（计算能力）构建的，或者不支持这块 GPU；“driver version is insufficient”表示 NVIDIA 驱动比构建它所用的 CUDA 旧；“Torch not compiled with CUDA”表示安装的 PyTorch 不带 CUDA；如果是编译器或构建错误，说明这段代码在第一次使用时才自行编译，需要错误中提到的 C++ 编译器和 CUDA 工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="58" />
      <source>Read the first error line: the compiler rejected the package's source. Check that the package's version fits your PyTorch, CUDA and compiler versions (its README or issue tracker), or try another version of the package.</source>
      <translation>请阅读第一条错误行：编译器拒绝了该软件包的源代码。请确认软件包的版本与你的 PyTorch、CUDA 和编译器版本相符（见其 README 或 issue 列表），或换用该软件包的其他版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="51" />
      <source>Read the first error line: the package's build script stopped before compiling. Usually a tool or package the script looks for is missing or not the version it expects.</source>
      <translation>请阅读第一条错误行：该软件包的构建脚本在编译之前就停止了。通常是脚本查找的某个工具或软件包缺失，或版本不符合预期。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="724" />
      <source>Rebuild the kernel against the PyTorch that is installed now, and run the wizard's verification again after every PyTorch update.</source>
      <translation>针对现在安装的 PyTorch 重新编译内核，并在每次更新 PyTorch 后重新运行向导的验证。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1450" />
      <source>Rebuild {package} where the CUDA toolkit is found (CUDA_HOME set, nvcc on PATH) and a CUDA build of PyTorch is installed; some packages build their CUDA part only when they see a GPU while building, and their README names the setting that forces it. The wizard builds with the toolkit and PyTorch it checked.</source>
      <translation>请在能找到 CUDA 工具包（已设置 CUDA_HOME、nvcc 在 PATH 中）并已安装 CUDA 版 PyTorch 的环境中重新构建 {package}；有些软件包只有在构建时看到 GPU 才会构建 CUDA 部分，其 README 会写明强制构建的设置。向导使用它检查过的工具包和 PyTorch 进行构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/ai_apps/venvs.py" line="57" />
      <source>Recreate it with a Python of the same version (python -m venv --clear {prefix}) and install the program's packages again (an AI program: run its installer or update script again), or choose another Python.</source>
      <translation>请用同一版本的 Python 重新创建它（python -m venv --clear {prefix}），再重新安装程序需要的包（AI 程序：再运行一次它的安装或更新脚本），或者选择另一个 Python。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="458" />
      <source>Reinstall Git for Windows.</source>
      <translation>请重新安装 Git for Windows。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="554" />
      <source>Reinstall PyTorch in that environment: {command} (or choose another environment).</source>
      <translation>请在那个环境中重新安装 PyTorch：{command}（或者另选一个环境）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="564" />
      <source>Reinstall PyTorch in this environment (pip install --force-reinstall torch), or choose another environment.</source>
      <translation>请在这个环境中重新安装 PyTorch（pip install --force-reinstall torch），或者另选一个环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="171" />
      <source>Reinstall the CUDA toolkit.</source>
      <translation>请重新安装 CUDA 工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="340" />
      <source>Reinstall the Kernel Setup Wizard.</source>
      <translation>请重新安装内核安装向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="674" />
      <source>Reinstall the version you want instead.</source>
      <translation>请改为重新安装你想要的版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="127" />
      <source>Remove the {name} environment variable (Settings → System → About → Advanced system settings → Environment Variables) or point it to an installed {role}, then start the wizard again.</source>
      <translation>请删除 {name} 环境变量（设置 → 系统 → 关于 → 高级系统设置 → 环境变量），或者让它指向已安装的{role}，然后重新启动向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="131" />
      <source>Removed {name} {version} and put back {restored} {restored_version} in {python}.</source>
      <translation>已从 {python} 移除 {name} {version}，并恢复了 {restored} {restored_version}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="128" />
      <source>Removed {name} {version} from {python}; nothing was installed there before.</source>
      <translation>已从 {python} 移除 {name} {version}；那里之前没有安装过它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="288" />
      <source>Rename or remove the file {file}, or {alternative}.</source>
      <translation>请重命名或删除文件 {file}，或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="291" />
      <source>Rename or remove the folder {path}, or {alternative}.</source>
      <translation>请重命名或删除文件夹 {path}，或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="143" />
      <source>Repair PyTorch there first ({command}).</source>
      <translation>请先修复那里的 PyTorch（{command}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="139" />
      <source>Report this; meanwhile choose a local copy (Kernel page → Local folder).</source>
      <translation>请报告这个问题；在此期间可以选择一份本地副本（内核页面 → 本地文件夹）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="206" />
      <source>Restart Windows, then run the wizard again.</source>
      <translation>请重启 Windows，然后重新运行向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="550" />
      <source>Restart Windows, then start the wizard again yourself.</source>
      <translation>请重启 Windows，然后自己重新启动向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="539" />
      <source>Restart Windows. The wizard opens again after the restart and continues here.</source>
      <translation>请重启 Windows。重启后向导会重新打开，并从这里继续。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="61" />
      <source>Restart Windows; the wizard opens again and continues here.</source>
      <translation>请重启 Windows；向导会重新打开，并从这里继续。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="101" />
      <source>Restart the computer, then run the wizard again.</source>
      <translation>请重启电脑，然后重新运行向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="325" />
      <source>Restart the computer. If this persists, reinstall the driver; on Linux, check that 'nvidia-smi' works and that Secure Boot is not blocking the nvidia kernel module.</source>
      <translation>请重启电脑。如果问题仍然存在，请重新安装驱动；在 Linux 上，请确认 'nvidia-smi' 能正常运行，并且安全启动（Secure Boot）没有阻止 nvidia 内核模块。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="344" />
      <source>Restart the computer; if this persists, reinstall the NVIDIA driver.</source>
      <translation>请重启电脑；如果问题仍然存在，请重新安装 NVIDIA 驱动。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="133" />
      <source>Reusing {name} ({size}): it was downloaded and checked before.</source>
      <translation>重新使用 {name}（{size}）：它之前已下载并检查过。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="846" />
      <source>Roll back first to install it again.</source>
      <translation>请先回滚，才能再次安装。</translation>
    </message>
    <message>
      <source>Run 'python -m app --headless installs' to see what the wizard installed.</source>
      <translation type="obsolete">运行 'python -m app --headless installs' 可以查看向导安装过的内容。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="535" />
      <source>Run 'python -m ensurepip --upgrade' with this interpreter, or choose another.</source>
      <translation>请用这个解释器运行 'python -m ensurepip --upgrade'，或者另选一个。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="577" />
      <source>Run '{command}' to see what the wizard installed.</source>
      <translation>运行 '{command}' 可以查看向导安装了什么。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="26" />
      <source>Run the fix again to finish.</source>
      <translation>再次运行修复即可完成。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="852" />
      <source>Run the wizard as a user who may write into this Python's folder, or copy the files yourself.</source>
      <translation>请以可以写入这个 Python 文件夹的用户身份运行向导，或者自己复制这些文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="330" />
      <source>Run the wizard as a user with access to the GPU (on Linux: check the permissions of /dev/nvidia*, or membership of the 'video' group).</source>
      <translation>请以有权访问 GPU 的用户身份运行本向导（在 Linux 上：检查 /dev/nvidia* 的权限，或是否属于 'video' 用户组）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="233" />
      <source>Run the wizard from an account that may install software.</source>
      <translation>请从一个可以安装软件的帐户运行向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="440" />
      <source>Run the wizard inside WSL2 (Ubuntu) on this PC and build there.</source>
      <translation>在这台电脑的 WSL2（Ubuntu）中运行本向导，并在那里编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="252" />
      <source>Run {installer} yourself to see what went wrong (it shows its own messages), or download the toolkit from developer.nvidia.com/cuda-downloads.</source>
      <translation>请自己运行 {installer}，看看哪里出了问题（它会显示自己的消息），或者从 developer.nvidia.com/cuda-downloads 下载工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="54" />
      <source>Runs Python's own installer of pip (ensurepip) with {python}. It installs the pip that came with this Python; nothing is downloaded.</source>
      <translation>用 {python} 运行 Python 自带的 pip 安装程序（ensurepip）。它安装这个 Python 自带的 pip；不会下载任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="90" />
      <source>Runs pip in {python} to install {requirement} (the Triton that this PyTorch works with; a download of a few hundred MB).</source>
      <translation>在 {python} 中运行 pip 安装 {requirement}（与此 PyTorch 配套的 Triton；需下载几百 MB）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="74" />
      <source>Runs pip in {python} to install {what}.</source>
      <translation>在 {python} 中运行 pip，安装 {what}。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/sdnext.toml" />
      <source>SD.Next picks its attention method in its settings; this kernel is not one of its choices there.</source>
      <translation>SD.Next 在设置中选择注意力方法；这个内核不在那里的可选项中。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention3.toml" />
      <source>SageAttention 3's setup.py is written for Linux; woct0rdho's fork builds Windows wheels of it, which the wizard does not list yet.</source>
      <translation>SageAttention 3 的 setup.py 是为 Linux 编写的；woct0rdho 的分支提供其 Windows wheel，但向导尚未收录。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention.toml" />
      <source>SageAttention's Triton kernels need Triton 3.0 or newer at run time (README): on Linux the one that comes with PyTorch; on Windows the triton-windows package that matches the PyTorch version (the Prerequisites step checks it)</source>
      <translation>SageAttention 的 Triton 内核运行时需要 Triton 3.0 或更新版本（见 README）：Linux 上使用 PyTorch 自带的版本；Windows 上需要与 PyTorch 版本匹配的 triton-windows 包（前置条件步骤会检查）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="211" />
      <source>Save your work: Windows is restarting. Run the wizard again afterwards.</source>
      <translation>请保存你的工作：Windows 正在重启。之后请重新运行向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="344" />
      <source>Search for it in {repo}'s issues:</source>
      <translation>在 {repo} 的 issues 中搜索：</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="345" />
      <source>Search for it on GitHub:</source>
      <translation>在 GitHub 上搜索：</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="80" />
      <source>See the CUDA toolkit row.</source>
      <translation>请看“CUDA 工具包”一行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="842" />
      <source>See the log for details: {log}</source>
      <translation>详细信息见日志：{log}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="460" />
      <source>See the message above; nothing of the new build remains installed.</source>
      <translation>请查看上面的信息；新编译的内容没有留在环境中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="135" />
      <source>See triton-windows' README for the version that matches this PyTorch.</source>
      <translation>请查看 triton-windows 的 README，找到与此 PyTorch 匹配的版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="461" />
      <source>Select a matching number of GPUs.</source>
      <translation>请选择数量相符的 GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="372" />
      <source>Select at least one GPU.</source>
      <translation>请至少选择一个 GPU。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1766" />
      <source>Set the variable to the toolkit folder alone, e.g. CUDA_HOME=/usr/local/cuda (no leading or trailing ':', no other folders, no quotes; PATH and LD_LIBRARY_PATH are the lists), then build again. For its own builds the wizard sets CUDA_HOME from the toolkit it found.</source>
      <translation>请将该变量只设为工具包文件夹，例如 CUDA_HOME=/usr/local/cuda（前后不要有 ':'，不要有其他文件夹，不要有引号；列表应放在 PATH 和 LD_LIBRARY_PATH 中），然后重新构建。向导自己的构建会根据找到的工具包设置 CUDA_HOME。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="437" />
      <source>Sets git's core.longpaths to true in your own git settings (~/.gitconfig), so git can check out sources with paths longer than 260 characters (CUTLASS, FlashAttention). Nothing else changes.</source>
      <translation>在你自己的 git 设置（~/.gitconfig）中把 git 的 core.longpaths 设为 true，让 git 能检出路径超过 260 个字符的源码（CUTLASS、FlashAttention）。不会更改其他任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="492" />
      <source>Sets the Windows setting LongPathsEnabled to 1 ({key}). Windows asks for administrator rights for this one change. It takes effect after a restart; the wizard then opens again by itself and continues here.</source>
      <translation>把 Windows 设置 LongPathsEnabled 设为 1（{key}）。这一项更改 Windows 会请求管理员权限。重启后生效；之后向导会自动重新打开，并从这里继续。</translation>
    </message>
    <message>
      <source>Since {kernels} last passed verification, the {whats} changed. Re-verify now to be sure it still computes right.</source>
      <translation type="obsolete">自 {kernels} 上次通过验证以来，{whats} 已更改。请立即重新验证，确认其计算结果仍然正确。</translation>
    </message>
    <message>
      <source>Since {kernels} last passed verification, the {what} changed ({before} → {after}). Re-verify now to be sure it still computes right.</source>
      <translation type="obsolete">自 {kernels} 上次通过验证以来，{what} 已更改（{before} → {after}）。请立即重新验证，确认其计算结果仍然正确。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="187" />
      <source>Since {kernels} last passed verification, {whats} changed. Re-verify now to be sure it still computes right.</source>
      <translation>自 {kernels} 上次通过验证以来，{whats} 已更改。请立即重新验证，确认其计算结果仍然正确。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="183" />
      <source>Since {kernels} last passed verification, {what} changed ({before} → {after}). Re-verify now to be sure it still computes right.</source>
      <translation>自 {kernels} 上次通过验证以来，{what} 已更改（{before} → {after}）。请立即重新验证，确认其计算结果仍然正确。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="703" />
      <source>Skipping the library's own wheel download and building.</source>
      <translation>跳过这个库自己的 wheel 下载，直接编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/cache.py" line="150" />
      <source>Some of its files are in use or write-protected.</source>
      <translation>其中一些文件正在被使用，或者是写保护的。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/model.py" line="162" />
      <source>Source archives are downloaded from GitHub; this repository is not on GitHub.</source>
      <translation>源码压缩包从 GitHub 下载；这个仓库不在 GitHub 上。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="43" />
      <source>Speed was not measured.</source>
      <translation>没有测量速度。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="41" />
      <source>Speed was not measured: it is measured on an NVIDIA GPU only, and these checks ran on the CPU.</source>
      <translation>没有测量速度：速度只在 NVIDIA GPU 上测量，而这些检查是在 CPU 上运行的。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="498" />
      <source>Speed, measured on {what}:</source>
      <translation>速度（测量条件：{what}）：</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/wan2gp.toml" />
      <source>Start Wan2GP with --attention flash, or choose it as the attention mode in its settings.</source>
      <translation>带 --attention flash 启动 Wan2GP，或在它的设置中把它选为注意力模式。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/wan2gp.toml" />
      <source>Start Wan2GP with --attention sage2 (SageAttention 2; --attention sage for version 1), or choose it as the attention mode in its settings.</source>
      <translation>带 --attention sage2 启动 Wan2GP（SageAttention 2；版本 1 用 --attention sage），或在它的设置中把它选为注意力模式。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="769" />
      <source>Start it again whenever you like; your environment is unchanged.</source>
      <translation>你可以随时重新开始；你的环境没有改变。</translation>
    </message>
    <message>
      <source>Start the wizard (or any 'python -m app --headless' command) again: it finishes undoing the install.</source>
      <translation type="obsolete">请再次启动向导（或任意 'python -m app --headless' 命令）：它会完成撤销这次安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="509" />
      <source>Start the wizard (or any '{command}' command) again: it finishes undoing the install.</source>
      <translation>请再次启动向导（或任何 '{command}' 命令）：它会完成撤销安装。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/sdnext.toml" />
      <source>Started with --debug, SD.Next's log says: Torch attention: type="Sage attention".</source>
      <translation>带 --debug 启动时，SD.Next 的日志会显示：Torch attention: type="Sage attention"。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="336" />
      <source>Stopped while {family}.</source>
      <translation>停止于：{family}。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/swarmui.toml" />
      <source>SwarmUI starts its ComfyUI backend itself: in Server → Backends → ComfyUI Self-Starting, add --use-flash-attention to ExtraArgs and restart the backend.</source>
      <translation>SwarmUI 自己启动它的 ComfyUI 后端：在 Server → Backends → ComfyUI Self-Starting 中，把 --use-flash-attention 加到 ExtraArgs，然后重启后端。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/swarmui.toml" />
      <source>SwarmUI starts its ComfyUI backend itself: in Server → Backends → ComfyUI Self-Starting, add --use-sage-attention to ExtraArgs and restart the backend.</source>
      <translation>SwarmUI 自己启动它的 ComfyUI 后端：在 Server → Backends → ComfyUI Self-Starting 中，把 --use-sage-attention 加到 ExtraArgs，然后重启后端。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/swarmui.toml" />
      <source>SwarmUI's ComfyUI backend has no start option for this kernel: only custom nodes that import it use it.</source>
      <translation>SwarmUI 的 ComfyUI 后端没有针对这个内核的启动选项：只有导入它的自定义节点才会使用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="141" />
      <source>The 'triton' package here is not triton-windows; SageAttention needs triton-windows {want} on Windows.</source>
      <translation>这里的 'triton' 包不是 triton-windows；在 Windows 上 SageAttention 需要 triton-windows {want}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="112" />
      <source>The Build Tools are free; the Fix button installs them.</source>
      <translation>Build Tools 是免费的；“修复”按钮会安装它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1681" />
      <source>The C++ library of this compiler is too old (no &lt;filesystem&gt;)</source>
      <translation>这个编译器的 C++ 库太旧（没有 &lt;filesystem&gt;）</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="113" />
      <source>The C++ standard library that comes with current Visual Studio versions refuses to be compiled by CUDA toolkits older than 12.4.</source>
      <translation>当前各版本 Visual Studio 自带的 C++ 标准库拒绝被低于 12.4 的 CUDA 工具包编译。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1631" />
      <source>The CUDA compiler (nvcc) does not compile {required}</source>
      <translation>CUDA 编译器（nvcc）不支持编译 {required}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1649" />
      <source>The CUDA compiler (nvcc) is older than the build expects: it does not know {option}</source>
      <translation>CUDA 编译器（nvcc）比构建所需的版本旧：它不认识 {option}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="441" />
      <source>The CUDA compiler (nvcc) was not found</source>
      <translation>未找到 CUDA 编译器（nvcc）</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1498" />
      <source>The CUDA compiler does not accept the host C++ compiler</source>
      <translation>CUDA 编译器不接受主机 C++ 编译器</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1278" />
      <source>The CUDA files were compiled as relocatable device code (-rdc=true), which needs a separate device-link step (nvcc -dlink) before the final link. That step did not run or its output was not linked in, so the __cudaRegisterLinkedBinary_* symbols are missing. This is not a PyTorch version problem.</source>
      <translation>CUDA 文件被编译成了可重定位设备代码（-rdc=true），这需要在最终链接前单独进行一次设备链接（nvcc -dlink）。这一步没有运行，或者它的输出没有被链接进去，所以缺少 __cudaRegisterLinkedBinary_* 符号。这不是 PyTorch 版本的问题。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="249" />
      <source>The CUDA installation was cancelled.</source>
      <translation>CUDA 安装已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="251" />
      <source>The CUDA installer failed (exit code {code}).</source>
      <translation>CUDA 安装程序失败了（退出代码 {code}）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="352" />
      <source>The CUDA toolkit does not match PyTorch's CUDA version</source>
      <translation>CUDA 工具包与 PyTorch 的 CUDA 版本不一致</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="244" />
      <source>The CUDA toolkit is installed.</source>
      <translation>已安装 CUDA 工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="246" />
      <source>The CUDA toolkit is installed; Windows must restart to finish.</source>
      <translation>已安装 CUDA 工具包；Windows 必须重启才能完成。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1049" />
      <source>The CUDA toolkit is too old for the requested GPU architecture</source>
      <translation>CUDA 工具包太旧，不支持所要求的 GPU 架构</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="972" />
      <source>The CUTLASS sources (cute/, cutlass/) are missing from the source tree</source>
      <translation>源码中缺少 CUTLASS 源码（cute/、cutlass/）</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="832" />
      <source>The GPU ({arch}) is older than every GPU architecture this PyTorch build supports: newer PyTorch releases dropped it, so nothing built on top of this PyTorch can run on it.</source>
      <translation>这块 GPU（{arch}）比此 PyTorch 版本支持的所有 GPU 架构都要旧：较新的 PyTorch 版本已不再支持它，因此基于此 PyTorch 构建的任何内容都无法在它上面运行。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="125" />
      <source>The Microsoft C++ compiler (cl.exe) was not found</source>
      <translation>找不到 Microsoft C++ 编译器（cl.exe）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="343" />
      <source>The NVIDIA driver answered with an error.</source>
      <translation>NVIDIA 驱动返回了错误。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="324" />
      <source>The NVIDIA driver is installed but not running.</source>
      <translation>NVIDIA 驱动已安装，但没有运行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="334" />
      <source>The NVIDIA driver is running but reports no GPU.</source>
      <translation>NVIDIA 驱动正在运行，但报告没有 GPU。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1602" />
      <source>The NVIDIA driver is too old for this CUDA version</source>
      <translation>NVIDIA 驱动对此 CUDA 版本来说太旧</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="538" />
      <source>The NVIDIA driver supports CUDA up to {driver}, but PyTorch here uses CUDA {torch_cuda}: update the driver before the kernel can run.</source>
      <translation>NVIDIA 驱动最高支持 CUDA {driver}，但这里的 PyTorch 使用 CUDA {torch_cuda}：请先更新驱动，内核才能运行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="215" />
      <source>The NVIDIA driver supports CUDA up to {driver}, older than CUDA {cuda}: kernels still run (minor version compatibility), but code compiled just-in-time from PTX would not.</source>
      <translation>NVIDIA 驱动最高支持 CUDA {driver}，比 CUDA {cuda} 旧：内核仍然可以运行（次版本兼容），但从 PTX 即时编译的代码不行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="207" />
      <source>The NVIDIA driver supports CUDA up to {driver}; kernels built with CUDA {cuda} would not run on it.</source>
      <translation>NVIDIA 驱动最高支持 CUDA {driver}；用 CUDA {cuda} 编译的内核无法在它上面运行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="339" />
      <source>The NVML module (nvidia-ml-py) is missing from this installation of the wizard.</source>
      <translation>本向导的安装中缺少 NVML 模块（nvidia-ml-py）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/deepep.toml" />
      <source>The NVSHMEM-based V1 line with the Buffer API (intranode dispatch/combine verified by the wizard); builds with the NCCL that comes with PyTorch.</source>
      <translation>基于 NVSHMEM、使用 Buffer API 的 V1 版本线（本向导会验证节点内的 dispatch/combine）；使用 PyTorch 自带的 NCCL 编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/kernels.py" line="21" />
      <source>The Prerequisites step says what to do</source>
      <translation>前置条件步骤会说明该怎么做</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1420" />
      <source>The PyTorch installed in this Python has no CUDA support (a CPU-only build, the one pip installs by default on Windows and from PyPI for some versions), so nothing can run on the GPU.</source>
      <translation>此 Python 中安装的 PyTorch 不支持 CUDA（仅 CPU 版本：在 Windows 上以及某些版本从 PyPI 安装时，pip 默认装的就是它），因此任何代码都无法在 GPU 上运行。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1112" />
      <source>The Python headers or import library are missing (Python.h / pythonXY.lib)</source>
      <translation>缺少 Python 头文件或导入库（Python.h / pythonXY.lib）</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1184" />
      <source>The Visual Studio / Windows SDK environment is incomplete (standard headers missing)</source>
      <translation>Visual Studio / Windows SDK 环境不完整（缺少标准头文件）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="51" />
      <source>The Visual Studio Installer (vswhere.exe) is not installed, so there is no Visual Studio on this computer.</source>
      <translation>没有安装 Visual Studio Installer（vswhere.exe），所以这台电脑上没有 Visual Studio。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="216" />
      <source>The Visual Studio Installer could not download its files.</source>
      <translation>Visual Studio Installer 无法下载它的文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="107" />
      <source>The Visual Studio Installer did not answer properly, so no compiler could be found.</source>
      <translation>Visual Studio Installer 没有正常回答，所以找不到编译器。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="234" />
      <source>The Visual Studio Installer failed (exit code {code}).</source>
      <translation>Visual Studio Installer 失败了（退出代码 {code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="232" />
      <source>The Visual Studio Installer needs administrator rights.</source>
      <translation>Visual Studio Installer 需要管理员权限。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="221" />
      <source>The Visual Studio Installer rejected its command line.</source>
      <translation>Visual Studio Installer 拒绝了它的命令行。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/a1111.toml" />
      <source>The WebUI has no start option for this kernel: its attention options are --xformers, --opt-sdp-attention and --opt-sdp-no-mem-attention (in COMMANDLINE_ARGS of webui-user.bat or webui-user.sh). Only extensions that import the kernel use it.</source>
      <translation>WebUI 没有针对这个内核的启动选项：它的注意力选项是 --xformers、--opt-sdp-attention 和 --opt-sdp-no-mem-attention（写在 webui-user.bat 或 webui-user.sh 的 COMMANDLINE_ARGS 中）。只有导入这个内核的扩展才会使用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="90" />
      <source>The Windows SDK is missing, so C++ programs cannot be linked.</source>
      <translation>缺少 Windows SDK，所以无法链接 C++ 程序。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="124" />
      <source>The address was {url}.</source>
      <translation>地址是 {url}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="41" />
      <source>The address {url} is not one the wizard can download from.</source>
      <translation>向导无法从地址 {url} 下载。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="194" />
      <source>The administrator prompt was declined; nothing was installed.</source>
      <translation>管理员权限请求被拒绝；没有安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="528" />
      <source>The administrator prompt was declined; the Windows setting is unchanged.</source>
      <translation>管理员权限请求被拒绝；Windows 设置没有改变。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="232" />
      <source>The answer named {sha}, not a commit.</source>
      <translation>返回的结果是 {sha}，不是一个提交。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="225" />
      <source>The answer was not understood ({error}).</source>
      <translation>无法理解返回的结果（{error}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="136" />
      <source>The archive of {path} at {commit} does not look like the submodule {name} needs: the folder {problem}.</source>
      <translation>{path} 在 {commit} 的压缩包看起来不是 {name} 需要的子模块：该文件夹{problem}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="129" />
      <source>The archive {archive} could not be read.</source>
      <translation>无法读取压缩包 {archive}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="37" />
      <source>The archive {label} is damaged and could not be extracted.</source>
      <translation>压缩包 {label} 已损坏，无法解压。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="73" />
      <source>The archive {label} is unsafe and was not extracted.</source>
      <translation>压缩包 {label} 不安全，没有解压。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="144" />
      <source>The archive {label} was not extracted: it would unpack to {size} GB, more than any kernel's source.</source>
      <translation>压缩包 {label} 未被解压：它解压后将有 {size} GB，超过任何内核的源代码。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/swarmui.toml" />
      <source>The backend's log (Server → Logs) says "Using Flash Attention".</source>
      <translation>后端的日志（Server → Logs）会显示 "Using Flash Attention"。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/swarmui.toml" />
      <source>The backend's log (Server → Logs) says "Using sage attention".</source>
      <translation>后端的日志（Server → Logs）会显示 "Using sage attention"。</translation>
    </message>
    <message>
      <source>The build asks for GPU architecture {arch} (the detected GPU, or TORCH_CUDA_ARCH_LIST), and the installed PyTorch is older than that GPU generation, so its build tools do not know it (RTX 30 series, 8.6, needs PyTorch 1.7 or newer with CUDA 11.1; RTX 40 series, 8.9, and Hopper, 9.0, need PyTorch 2.0 or newer).</source>
      <translation type="obsolete">编译要求 GPU 架构 {arch}（来自检测到的 GPU 或 TORCH_CUDA_ARCH_LIST），而已安装的 PyTorch 比这一代 GPU 更旧，所以它的编译工具不认识这个架构（RTX 30 系列，即 8.6，需要 PyTorch 1.7 或更高版本并搭配 CUDA 11.1；RTX 40 系列，即 8.9，以及 Hopper，即 9.0，需要 PyTorch 2.0 或更高版本）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1023" />
      <source>The build asks nvcc for {arch}, a GPU generation (Maxwell, Pascal or Volta) that CUDA 13 no longer compiles for: the toolkit is not too old, it is newer than that GPU generation. The kernel's build files or an architecture setting name it.</source>
      <translation>构建要求 nvcc 为 {arch} 编译，这是 CUDA 13 已不再支持编译的 GPU 代际（Maxwell、Pascal 或 Volta）：不是工具包太旧，而是它比这一代 GPU 更新。内核的构建文件或某个架构设置中指定了它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1006" />
      <source>The build asks nvcc for {arch}, an old GPU generation that this CUDA toolkit no longer compiles for (CUDA 11 dropped compute_30 and older, CUDA 12 compute_35 and compute_37, CUDA 13 compute_50 to compute_72): the kernel's build files or an architecture setting name it.</source>
      <translation>构建要求 nvcc 编译 {arch}，这是此 CUDA 工具包已不再支持的旧一代 GPU（CUDA 11 移除了 compute_30 及更早的架构，CUDA 12 移除了 compute_35 和 compute_37，CUDA 13 移除了 compute_50 到 compute_72）：它来自内核的构建文件或某个架构设置。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="125" />
      <source>The build could not start the Microsoft C++ compiler: Visual Studio Build Tools with the C++ workload are not installed, or the build did not run inside the Visual Studio developer environment that puts cl.exe on the PATH.</source>
      <translation>编译无法启动 Microsoft C++ 编译器：没有安装带 C++ 工作负载的 Visual Studio Build Tools，或者编译没有在 Visual Studio 开发者环境中运行（这个环境会把 cl.exe 加入 PATH）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="829" />
      <source>The build failed.</source>
      <translation>编译失败。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="828" />
      <source>The build failed: {title}.</source>
      <translation>编译失败：{title}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="800" />
      <source>The build finished but produced no wheel.</source>
      <translation>编译结束了，但没有生成 wheel。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="74" />
      <source>The build folder's path is long ({length} characters); even with long paths on, the compiler can fail on deep files.</source>
      <translation>编译文件夹的路径很长（{length} 个字符）；即使开启了长路径，编译器也可能在层级很深的文件上失败。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="998" />
      <source>The build has not been verified yet.</source>
      <translation>这次编译的结果还没有验证。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1088" />
      <source>The build links against the NVIDIA driver library (libcuda.so / cuda.lib), which the linker does not find: in containers and conda environments only the toolkit's stub library is there, in a folder that is not on the library search path (or only a 32-bit copy is found).</source>
      <translation>编译要链接 NVIDIA 驱动库（libcuda.so / cuda.lib），但链接器找不到它：在容器和 conda 环境中只有工具包的存根（stub）库，而且它所在的文件夹不在库搜索路径中（或者只找到了 32 位的副本）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1514" />
      <source>The build or install may not write where it tries to: {path}</source>
      <translation>构建或安装无法写入目标位置：{path}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1649" />
      <source>The build passes {option} to the compiler, and this compiler is older than that option: the CUDA toolkit (or the C++ compiler) is older than what PyTorch's extension builder or the kernel's build files expect.</source>
      <translation>构建向编译器传递了 {option}，而这个编译器比该选项更旧：CUDA 工具包（或 C++ 编译器）比 PyTorch 扩展构建器或内核构建文件所要求的更旧。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="685" />
      <source>The build ran out of memory; trying again with {what}.</source>
      <translation>编译时内存不足；正在调整后重试：{what}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1766" />
      <source>The build runs a program from a path made from an environment variable (usually CUDA_HOME or CUDA_PATH), and the variable is not a plain folder: it holds a list with a ':' or ';' separator, or quote characters ({value}). No program exists at that path, although the toolkit may well be installed.</source>
      <translation>构建从由环境变量（通常是 CUDA_HOME 或 CUDA_PATH）拼出的路径运行程序，而该变量不是单个文件夹：它包含用 ':' 或 ';' 分隔的列表，或包含引号字符（{value}）。该路径下不存在程序，尽管工具包很可能已经安装。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="441" />
      <source>The build runs nvcc, the CUDA toolkit's compiler, and the shell cannot find it: no CUDA toolkit is installed, or its bin folder is not on the PATH the build sees (sudo, for one, starts with its own PATH).</source>
      <translation>构建会运行 CUDA 工具包的编译器 nvcc，但 shell 找不到它：没有安装 CUDA 工具包，或者它的 bin 文件夹不在构建所用的 PATH 上（例如 sudo 会使用它自己的 PATH）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/msvc.py" line="376" />
      <source>The build selects it with vcvarsall.bat x64 -vcvars_ver={version}.</source>
      <translation>编译通过 vcvarsall.bat x64 -vcvars_ver={version} 选择它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="214" />
      <source>The build starts {tool}, and it is not installed, not on the PATH the build sees, or cannot be executed here (no permission, or made for another system).</source>
      <translation>编译需要启动 {tool}，但它没有安装、不在编译所用的 PATH 中，或者无法在这里运行（没有权限，或者是为其他系统制作的）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="834" />
      <source>The build stopped: {why}.</source>
      <translation>编译停止：{why}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1477" />
      <source>The build targets a GPU architecture older than the source supports ({function})</source>
      <translation>构建的目标 GPU 架构比源代码支持的更旧（{function}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="777" />
      <source>The build was cancelled; nothing was installed.</source>
      <translation>编译已取消，没有安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="773" />
      <source>The built kernel does not fit a DLL it loads</source>
      <translation>构建出的内核与它加载的某个 DLL 不匹配</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="724" />
      <source>The built kernel does not fit the installed PyTorch</source>
      <translation>编译出的内核与已安装的 PyTorch 不匹配</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="413" />
      <source>The cause is not one the wizard knows. It stopped while {family}: that usually means {usually}.</source>
      <translation>向导不认识这个原因。它停止于：{family}；这通常意味着：{usually}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="43" />
      <source>The cause is not one the wizard knows. Search the first error line in the package's issues (the link below); when you ask for help, attach the whole log.</source>
      <translation>向导不认识这个原因。请在该软件包的 issues 中搜索第一个错误行（见下方链接）；求助时请附上完整日志。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1999" />
      <source>The code calls {symbol} in {module}, which the installed PyTorch does not have: it was written for another PyTorch version (a newer one, if the name is new; an older one, if PyTorch removed it).</source>
      <translation>代码调用了 {module} 中的 {symbol}，而已安装的 PyTorch 没有它：这段代码是为另一个 PyTorch 版本编写的（如果这个名称是新增的，则是更新的版本；如果 PyTorch 已移除它，则是更旧的版本）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1728" />
      <source>The code imports {symbol} from {tool}, and the installed {tool} does not have it: the two packages are versions that were not made for each other.</source>
      <translation>代码从 {tool} 导入 {symbol}，而已安装的 {tool} 中没有它：这两个软件包的版本彼此不匹配。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1328" />
      <source>The compiled pieces of the extension do not fit the libraries they are linked with: the headers used while compiling come from another version (of PyTorch, CUDA or a dependency) than the libraries used for linking, or old objects from an earlier build were reused.</source>
      <translation>扩展的各个已编译部分与链接的库不匹配：编译时使用的头文件与链接时使用的库来自不同版本（PyTorch、CUDA 或某个依赖），或者重用了之前编译留下的旧目标文件。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1184" />
      <source>The compiler cannot find a standard header of the C runtime or of Windows (vcruntime.h, corecrt.h, stdio.h, windows.h...). They come with Visual Studio's C++ workload and the Windows SDK, and the compiler finds them only through the INCLUDE variable that the Visual Studio developer environment sets: here the SDK is missing or the environment was put together by hand.</source>
      <translation>编译器找不到 C 运行库或 Windows 的标准头文件（vcruntime.h、corecrt.h、stdio.h、windows.h...）。它们随 Visual Studio 的 C++ 工作负载和 Windows SDK 一起提供，编译器只能通过 Visual Studio 开发者环境设置的 INCLUDE 变量找到它们：这里缺少 SDK，或者环境是手动拼凑的。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1380" />
      <source>The compiler crashed while compiling the kernel (an internal compiler error), instead of reporting a problem in the code. Most often it ran short of memory with many parallel jobs; otherwise it is a bug of this compiler version.</source>
      <translation>编译器在编译内核时崩溃（内部编译器错误），而不是报告代码中的问题。最常见的原因是并行任务太多导致内存不足；否则就是该编译器版本的缺陷。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1380" />
      <source>The compiler itself crashed</source>
      <translation>编译器本身崩溃了</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="272" />
      <source>The compiler ran out of memory</source>
      <translation>编译器内存不足</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="366" />
      <source>The compute capability of GPU {index} could not be read; it is left out.</source>
      <translation>无法读取 GPU {index} 的计算能力，已将它略过。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="75" />
      <source>The computer seems to be offline, or the server is unreachable ({reason}).</source>
      <translation>这台电脑似乎没有联网，或者无法访问服务器（{reason}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="66" />
      <source>The connection to {host} was lost ({cause}){after}</source>
      <translation>与 {host} 的连接中断了（{cause}）{after}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="671" />
      <source>The copy of what {name} replaced in {python} is missing.</source>
      <translation>{name} 在 {python} 中替换掉的内容的备份不见了。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="139" />
      <source>The damaged file was deleted. Try again; if it happens again, the file on the server was probably replaced: look for a newer version of the wizard.</source>
      <translation>损坏的文件已删除。请重试；如果再次发生，服务器上的文件可能已被替换：请查找新版本的向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="319" />
      <source>The details show the error. Repair this environment (a damaged package or sitecustomize usually causes this), or choose another Python.</source>
      <translation>详细信息中有错误内容。请修复这个环境（通常是某个损坏的包或 sitecustomize 导致的），或者另选一个 Python。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1355" />
      <source>The disk is full</source>
      <translation>磁盘已满</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="337" />
      <source>The disk is full: git could not write {name}'s source.</source>
      <translation>磁盘已满：git 无法写入 {name} 的源码。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="27" />
      <source>The download from {host} was redirected to an insecure address.</source>
      <translation>从 {host} 的下载被重定向到了一个不安全的地址。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1158" />
      <source>The download of a ready-made wheel of {package} failed (network)</source>
      <translation>{package} 下载现成 wheel 失败（网络问题）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="53" />
      <source>The download of {name} stopped at {received} of {total}.</source>
      <translation>{name} 的下载在 {received}（共 {total}）处中断。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="56" />
      <source>The download of {name} stopped at {received}.</source>
      <translation>{name} 的下载在 {received} 处中断。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="199" />
      <source>The download of {what} failed: {error}</source>
      <translation>{what} 下载失败：{error}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="815" />
      <source>The download was cancelled; nothing was changed.</source>
      <translation>下载已取消；没有做任何更改。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="88" />
      <source>The download was cancelled; nothing was installed.</source>
      <translation>下载已取消，没有安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="125" />
      <source>The downloaded archive of {path} is not the pinned commit.</source>
      <translation>下载的 {path} 压缩包不是固定的那个提交。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="137" />
      <source>The downloaded file {name} was damaged or has changed on the server.</source>
      <translation>下载的文件 {name} 已损坏，或者服务器上的文件已更改。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="823" />
      <source>The downloaded package is not the one expected: {problem}. Nothing was changed.</source>
      <translation>下载的包不是预期的那个：{problem}。没有做任何更改。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="92" />
      <source>The downloaded {name} archive is not the expected version.</source>
      <translation>下载的 {name} 压缩包不是预期的版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/statefile.py" line="128" />
      <source>The earlier copy of the file was left as it was.</source>
      <translation>该文件之前的副本保持原样。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>The fast exact attention kernel for Hopper GPUs (H100, H800, H200): forward and backward, fp16 and bf16.</source>
      <translation>面向 Hopper GPU（H100、H800、H200）的快速精确注意力内核：前向和反向，fp16 和 bf16。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="98" />
      <source>The file {name} was not found on the server ({code}).</source>
      <translation>服务器上找不到文件 {name}（{code}）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1328" />
      <source>The final link step failed: symbols are missing or defined twice</source>
      <translation>最终链接步骤失败：缺少符号或符号被重复定义</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="839" />
      <source>The first error was: {line} — see the log for details: {log}</source>
      <translation>第一个错误是：{line} — 详细信息见日志：{log}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1766" />
      <source>The folder of a program the build runs is malformed: {value}</source>
      <translation>构建所运行程序的文件夹路径格式有误：{value}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="200" />
      <source>The folder {folder} has no {subdir} folder with a setup.py.</source>
      <translation>文件夹 {folder} 中没有包含 setup.py 的 {subdir} 文件夹。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="217" />
      <source>The folder {folder} is not a Python package source.</source>
      <translation>文件夹 {folder} 不是 Python 包的源码。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="192" />
      <source>The folder {folder} is only the {subdir} part of the kernel's source.</source>
      <translation>文件夹 {folder} 只是内核源码中的 {subdir} 部分。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="46" />
      <source>The free space at {folder} could not be read.</source>
      <translation>无法读取 {folder} 处的可用空间。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="366" />
      <source>The hardware has not been detected yet.</source>
      <translation>还没有检测硬件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="696" />
      <source>The host compiler could not find CUDA 13's CCCL headers; adding {folder} to its include path and trying again.</source>
      <translation>主机编译器找不到 CUDA 13 的 CCCL 头文件；正在把 {folder} 加入它的头文件搜索路径并重试。</translation>
    </message>
    <message>
      <source>The install of {name} {version} into {python} (started {started}) was interrupted after pip had finished; it was completed and is now recorded (roll it back with 'python -m app --headless rollback').</source>
      <translation type="obsolete">把 {name} {version} 安装到 {python} 的过程（开始于 {started}）在 pip 完成后被中断；安装已补完并记录下来（可用 'python -m app --headless rollback' 回滚）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="551" />
      <source>The install of {name} {version} into {python} (started {started}) was interrupted after pip had finished; it was completed and is now recorded (roll it back with '{command}').</source>
      <translation>{name} {version} 向 {python} 的安装（开始于 {started}）在 pip 完成后被中断；它已补全并记录下来（可以用 '{command}' 回滚）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="528" />
      <source>The install of {name} {version} into {python} (started {started}) was interrupted before it changed anything; nothing needed undoing.</source>
      <translation>把 {name} {version} 安装到 {python} 的过程（开始于 {started}）在做出任何改动之前被中断；不需要撤销任何内容。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="532" />
      <source>The install of {name} {version} into {python} (started {started}) was interrupted, and that Python no longer exists; nothing to undo.</source>
      <translation>把 {name} {version} 安装到 {python} 的过程（开始于 {started}）被中断，而且那个 Python 已不存在；没有需要撤销的内容。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="565" />
      <source>The install of {name} {version} into {python} (started {started}) was interrupted; it was rolled back: the half-installed {name} was removed.</source>
      <translation>把 {name} {version} 安装到 {python} 的过程（开始于 {started}）被中断；已回滚：安装了一半的 {name} 已被移除。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="561" />
      <source>The install of {name} {version} into {python} (started {started}) was interrupted; it was rolled back: {previous} {previous_version} is installed again, as before.</source>
      <translation>把 {name} {version} 安装到 {python} 的过程（开始于 {started}）被中断；已回滚：{previous} {previous_version} 已重新安装，和之前一样。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="213" />
      <source>The installation was cancelled in the Visual Studio Installer.</source>
      <translation>安装在 Visual Studio Installer 中被取消了。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="352" />
      <source>The installed CUDA toolkit (nvcc) has a different major version than the CUDA version your PyTorch was built with; extensions built this way would not work with your PyTorch.</source>
      <translation>安装的 CUDA 工具包（nvcc）的主版本号与编译你的 PyTorch 时所用的 CUDA 版本不同；这样编译出的扩展无法和你的 PyTorch 一起使用。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1999" />
      <source>The installed PyTorch does not have {symbol}</source>
      <translation>已安装的 PyTorch 中没有 {symbol}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1420" />
      <source>The installed PyTorch is a CPU-only build</source>
      <translation>已安装的 PyTorch 是仅支持 CPU 的版本</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1696" />
      <source>The installed PyTorch is older than the GPU architecture {arch} (the GPU in this computer, or one that TORCH_CUDA_ARCH_LIST asks a build for): it has no code for that GPU generation and its build tools do not know it (RTX 30 series, 8.6, needs PyTorch 1.7 or newer with CUDA 11.1; RTX 40 series, 8.9, and Hopper, 9.0, need PyTorch 2.0 or newer; RTX 50 series, sm_120, needs PyTorch 2.7 or newer with CUDA 12.8).</source>
      <translation>已安装的 PyTorch 比 GPU 架构 {arch}（这台电脑中的 GPU，或 TORCH_CUDA_ARCH_LIST 要求构建的架构）旧：它没有适用于这一代 GPU 的代码，它的构建工具也不认识这个架构（RTX 30 系列，8.6，需要 PyTorch 1.7 或更新版本并带 CUDA 11.1；RTX 40 系列，8.9，以及 Hopper，9.0，需要 PyTorch 2.0 或更新版本；RTX 50 系列，sm_120，需要 PyTorch 2.7 或更新版本并带 CUDA 12.8）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="92" />
      <source>The installed Visual Studio C++ compiler is newer than what this CUDA toolkit was made for (for example Visual Studio 2026 with CUDA 12.x), so CUDA refuses to use it.</source>
      <translation>安装的 Visual Studio C++ 编译器比这个 CUDA 工具包所支持的更新（例如 Visual Studio 2026 搭配 CUDA 12.x），所以 CUDA 拒绝使用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="977" />
      <source>The installed kernels have not been verified again yet.</source>
      <translation>已安装的内核还没有重新验证。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="199" />
      <source>The installer's logs are the dd_*.log files in %TEMP%.</source>
      <translation>安装程序的日志是 %TEMP% 中的 dd_*.log 文件。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="547" />
      <source>The kernel (or a library it loads) needs the symbol {symbol}, and the library that should provide it is a different version: the kernel was built on another system or with another toolkit, or a library path (LD_LIBRARY_PATH, PATH) points at the wrong copy of that library.</source>
      <translation>内核（或它加载的某个库）需要符号 {symbol}，而应当提供它的库版本不同：内核是在另一个系统上或用另一套工具包构建的，或者库路径（LD_LIBRARY_PATH、PATH）指向了该库的错误副本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="599" />
      <source>The kernel (or a library it loads) needs {what}, and the one found is missing, older than it was built for, or a different version: the kernel was built on another system or with another toolkit, or a library path (LD_LIBRARY_PATH, PATH) points at the wrong copy.</source>
      <translation>内核（或它加载的某个库）需要 {what}，但找不到这个库，或者找到的比内核编译时所用的更旧、或版本不同：内核是在另一个系统上或用另一个工具包编译的，或者某个库路径（LD_LIBRARY_PATH、PATH）指向了错误的副本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="333" />
      <source>The kernel computes the same results as PyTorch in all {n} checks, and it is installed.</source>
      <translation>在全部 {n} 项检查中，内核的计算结果都与 PyTorch 一致，并且已经安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="335" />
      <source>The kernel computes the same results as PyTorch in all {n} checks.</source>
      <translation>在全部 {n} 项检查中，内核的计算结果都与 PyTorch 一致。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="344" />
      <source>The kernel could not be checked:</source>
      <translation>无法检查这个内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="345" />
      <source>The kernel could not be checked: {reason}</source>
      <translation>无法检查这个内核：{reason}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="177" />
      <source>The kernel crashed the verification process ({exit}) during the check '{check}'. A kernel built for another GPU architecture or another PyTorch can do this: rebuild it.</source>
      <translation>在检查“{check}”时，内核让验证进程崩溃了（{exit}）。为其他 GPU 架构或其他 PyTorch 版本编译的内核可能会这样：请重新编译。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="800" />
      <source>The kernel has no code for this GPU</source>
      <translation>内核中没有适用于这块 GPU 的代码</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="994" />
      <source>The kernel has not been built for these choices yet.</source>
      <translation>还没有按这些选择编译内核。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="972" />
      <source>The kernel includes the CUTLASS library (its cute/ and cutlass/ headers), which is a git submodule of the kernel's repository. The source was downloaded without its submodules (a ZIP archive, a clone without --recursive, or setup.py could not fetch it without internet access), so the folder csrc/cutlass is empty.</source>
      <translation>内核包含 CUTLASS 库（它的 cute/ 和 cutlass/ 头文件），它是内核仓库的一个 git 子模块。下载源码时没有包含子模块（ZIP 压缩包、没有加 --recursive 的克隆，或者 setup.py 在没有网络的情况下无法获取它），所以 csrc/cutlass 文件夹是空的。</translation>
    </message>
    <message>
      <source>The kernel needs a symbol of PyTorch's Python bindings ({symbol}) that is not loaded</source>
      <translation type="obsolete">内核需要 PyTorch Python 绑定中的符号 {symbol}，但它尚未加载</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="526" />
      <source>The kernel needs {part}, a part of PyTorch that "import torch" loads</source>
      <translation>内核需要 {part}，它是 PyTorch 的一部分，由 "import torch" 加载</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1602" />
      <source>The kernel or PyTorch was built with a CUDA version that needs a newer NVIDIA driver than the one installed ({found}): each CUDA release requires a minimum driver version.</source>
      <translation>内核或 PyTorch 所用的 CUDA 版本需要比已安装的驱动（{found}）更新的 NVIDIA 驱动：每个 CUDA 版本都要求最低驱动版本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="724" />
      <source>The kernel was built against a different PyTorch version (or C++ ABI) than the one installed now, or the installed PyTorch is a CPU-only build. This often happens after PyTorch was updated.</source>
      <translation>内核编译时使用的 PyTorch 版本（或 C++ ABI）与现在安装的不同，或者安装的 PyTorch 是仅 CPU 版本。这通常发生在 PyTorch 更新之后。</translation>
    </message>
    <message>
      <source>The kernel was not compiled for this GPU's architecture, or the GPU is older than the kernel supports (FlashAttention 2 needs an Ampere GPU, RTX 30 series or newer).</source>
      <translation type="obsolete">内核没有为这块 GPU 的架构编译，或者这块 GPU 比内核支持的更旧（FlashAttention 2 需要 Ampere 架构的 GPU，即 RTX 30 系列或更新）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="800" />
      <source>The kernel was not compiled for this GPU's architecture, or the GPU is older than the kernel supports ({gpu_text}).</source>
      <translation>内核没有为这块 GPU 的架构编译，或者这块 GPU 比内核支持的更旧（{gpu_text}）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1233" />
      <source>The kernel's code uses GCC-style inline assembly (asm volatile(...)) in code that the Microsoft C++ compiler, nvcc's host compiler on Windows, compiles; it does not understand that syntax. The code is written for Linux.</source>
      <translation>内核代码在由 Microsoft C++ 编译器（Windows 上 nvcc 的主机编译器）编译的部分使用了 GCC 风格的内联汇编（asm volatile(...)）；该编译器不理解这种语法。这段代码是为 Linux 编写的。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1206" />
      <source>The kernel's code uses features of GCC and Clang that the Microsoft C++ compiler, nvcc's host compiler on Windows, does not have: the __int128 type, GNU-style inline assembly, always_inline attributes on lambdas, GCC's own compiler options (-Wno-...). FlashMLA and several CUTLASS-based kernels are written for Linux only.</source>
      <translation>内核代码使用了 GCC 和 Clang 的特性，而 Windows 上 nvcc 的主机编译器 Microsoft C++ 编译器不支持这些特性：__int128 类型、GNU 风格的内联汇编、lambda 上的 always_inline 属性、GCC 专有的编译选项（-Wno-...）。FlashMLA 和若干基于 CUTLASS 的内核只为 Linux 编写。</translation>
    </message>
    <message>
      <source>The kernel's code uses features of GCC and Clang that the Microsoft C++ compiler, nvcc's host compiler on Windows, does not have: the __int128 type, GNU-style inline assembly, always_inline attributes on lambdas. FlashMLA and several CUTLASS-based kernels are written for Linux only.</source>
      <translation type="obsolete">内核代码使用了 GCC 和 Clang 的功能，而 Microsoft C++ 编译器（Windows 上 nvcc 的主机编译器）没有这些功能：__int128 类型、GNU 风格的内联汇编、lambda 上的 always_inline 属性。FlashMLA 和一些基于 CUTLASS 的内核只为 Linux 编写。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="202" />
      <source>The kernel's package lives in {subdir} of its repository.</source>
      <translation>该内核的软件包位于其仓库的 {subdir} 中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="415" />
      <source>The last lines of pip's output say why; the full output is in {log}.</source>
      <translation>pip 输出的最后几行说明了原因；完整输出在 {log} 中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="91" />
      <source>The last lines of the output say why; the full output is in {log}.</source>
      <translation>输出的最后几行说明了原因；完整输出在 {log} 中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="148" />
      <source>The limit is {limit} GB.</source>
      <translation>上限为 {limit} GB。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="100" />
      <source>The link may be out of date: look for a newer version of the wizard, or download the file by hand and point the wizard at it.</source>
      <translation>链接可能已经过时：请查找新版本的向导，或者手动下载该文件并让向导使用它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="921" />
      <source>The link step lists so many files that its command line exceeds the Windows limit of 32767 characters.</source>
      <translation>链接步骤列出的文件太多，命令行超过了 Windows 32767 个字符的限制。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1088" />
      <source>The linker cannot find the CUDA driver library (libcuda)</source>
      <translation>链接器找不到 CUDA 驱动库（libcuda）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="397" />
      <source>The lock on this environment left by {holder} — no longer running — was taken over.</source>
      <translation>{holder} 留下的这个环境的锁（它已不再运行）已被接管。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="47" />
      <source>The log shows a failure, but no line that says why.</source>
      <translation>日志显示出现了失败，但没有任何一行说明原因。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/matcher.py" line="1304" />
      <source>The log shows no build, so {package} was installed ready-made (a wheel): reinstall the wheel made for the PyTorch, CUDA and Python installed now (pip install --force-reinstall with the matching version, or the index URL its documentation gives). Rebuild it only when no such wheel exists.</source>
      <translation>日志中没有构建过程，因此 {package} 是以现成的 wheel 安装的：请重新安装为当前 PyTorch、CUDA 和 Python 构建的 wheel（使用 pip install --force-reinstall 并指定匹配的版本，或其文档给出的索引地址）。只有在没有这样的 wheel 时才需要重新构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="334" />
      <source>The measurement of PyTorch's attention was not readable.</source>
      <translation>PyTorch 注意力的测量结果无法读取。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/text-generation-webui.toml" />
      <source>The model loads without "FlashAttention2 has been toggled on, but it cannot be used" in the console.</source>
      <translation>模型加载时控制台没有出现 "FlashAttention2 has been toggled on, but it cannot be used"。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/msvc.py" line="374" />
      <source>The newer {newer} are installed too, but CUDA {cuda} accepts only {accepted}.</source>
      <translation>还安装了更新的 {newer}，但 CUDA {cuda} 只接受 {accepted}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/msvc.py" line="372" />
      <source>The newer {newer} is installed too, but CUDA {cuda} accepts only {accepted}.</source>
      <translation>还安装了更新的 {newer}，但 CUDA {cuda} 只接受 {accepted}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="338" />
      <source>The ninja build tool is not installed in the target Python environment, so the build compiles one file at a time; with every GPU architecture enabled this can take hours.</source>
      <translation>目标 Python 环境中没有安装 ninja 编译工具，所以一次只能编译一个文件；如果启用了所有 GPU 架构，可能要花几个小时。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="110" />
      <source>The nvcc flag -allow-unsupported-compiler skips the check, but is a last resort: the build or the kernel may then fail or compute wrong results.</source>
      <translation>nvcc 的 -allow-unsupported-compiler 选项可以跳过这项检查，但这只是最后的办法：之后编译或内核可能失败，或者算出错误的结果。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/cache.py" line="149" />
      <source>The old copy of the source in {path} could not be removed.</source>
      <translation>无法删除 {path} 中旧的源码副本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="468" />
      <source>The package's CMake build enables CUDA and looks for nvcc, the compiler of the CUDA toolkit: no toolkit is installed, or its bin folder is not on the PATH and neither CUDACXX nor CUDA_HOME points at it.</source>
      <translation>该软件包的 CMake 构建启用了 CUDA 并查找 nvcc（CUDA 工具包的编译器）：没有安装工具包，或者它的 bin 文件夹不在 PATH 上，CUDACXX 和 CUDA_HOME 也都没有指向它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="61" />
      <source>The package's setup script needs PyTorch while it builds, but pip ran the build in a separate, temporary environment that does not contain PyTorch (pip's "build isolation"), or PyTorch is not installed in the chosen Python at all.</source>
      <translation>这个包的安装脚本在编译时需要 PyTorch，但 pip 在一个单独的临时环境中运行编译，而那个环境里没有 PyTorch（pip 的“编译隔离”）；或者所选的 Python 中根本没有安装 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="179" />
      <source>The part already downloaded is kept for next time.</source>
      <translation>已经下载的部分会保留，供下次使用。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="98" />
      <source>The prebuilt wheel could not be downloaded.</source>
      <translation>无法下载预编译的 wheel。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="986" />
      <source>The prerequisites have not been checked yet.</source>
      <translation>还没有检查前提条件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="209" />
      <source>The recipe does not pin the commit of {name}'s submodule {path}.</source>
      <translation>配方没有固定 {name} 的子模块 {path} 的提交。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="170" />
      <source>The recipe expects {expected}, the repository has {commit}: the tag was moved upstream, so this is not the source the recipe was tested with.</source>
      <translation>配方要求的是 {expected}，仓库中是 {commit}：上游移动了这个标签，所以这不是配方测试过的源码。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="542" />
      <source>The reinstall of {name} {version} into {python} (started {started}) was interrupted before pip changed anything; the earlier build is still installed and recorded.</source>
      <translation>向 {python} 重新安装 {name} {version}（开始于 {started}）在 pip 做出任何更改之前被中断；之前的构建仍然已安装并有记录。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/records.py" line="230" />
      <source>The repaired list could not be saved yet.</source>
      <translation>修复后的列表暂时无法保存。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="160" />
      <source>The repository was reached, but it does not contain that version (a tag removed or renamed upstream, or a typing error in a local recipe).</source>
      <translation>已连接到仓库，但其中没有这个版本（上游删除或重命名了标签，或者本地配方中有拼写错误）。</translation>
    </message>
    <message>
      <source>The search for AI programs stopped after looking into {count} folders: {left} folders {depth} level(s) below the usual places were not looked into (for example {example}). If a program is there, add its folder.</source>
      <translation type="obsolete">查找 AI 程序时在查看了 {count} 个文件夹后停止：常用位置下第 {depth} 层还有 {left} 个文件夹没有查看（例如 {example}）。如果程序在那里，请添加它的文件夹。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/ai_apps/__init__.py" line="288" />
      <source>The search for AI programs stopped early and did not look in {example}; if a program is there, add that folder yourself.</source>
      <translation>查找 AI 程序的搜索提前结束了，没有查看 {example}；如果程序在那里，请自己添加这个文件夹。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/ai_apps/__init__.py" line="290" />
      <source>The search for AI programs stopped early and did not look in {left} folders (for example {example}); if a program is in one of them, add its folder yourself.</source>
      <translation>查找 AI 程序的搜索提前结束了，有 {left} 个文件夹没有查看（例如 {example}）；如果程序在其中，请自己添加它的文件夹。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="84" />
      <source>The secure connection to {host} could not be established.</source>
      <translation>无法与 {host} 建立安全连接。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="524" />
      <source>The selected CUDA toolkit {toolkit} does not match the CUDA {torch_cuda} that PyTorch was built with: the major versions must be the same to build extensions.</source>
      <translation>所选的 CUDA 工具包 {toolkit} 与编译 PyTorch 所用的 CUDA {torch_cuda} 不匹配：要编译扩展，两者的主版本号必须相同。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="122" />
      <source>The server did not send {name}: it answered {answer}.</source>
      <translation>服务器没有发送 {name}：它的回应是 {answer}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="115" />
      <source>The server gave up waiting while sending {name} ({code}).</source>
      <translation>服务器在发送 {name} 时等待超时（{code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="118" />
      <source>The server had a problem and could not send {name} ({code}).</source>
      <translation>服务器出了问题，无法发送 {name}（{code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="112" />
      <source>The server is limiting requests and did not send {name} ({code}).</source>
      <translation>服务器正在限制请求，没有发送 {name}（{code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="105" />
      <source>The server refused to hand out {name} ({code}).</source>
      <translation>服务器拒绝提供 {name}（{code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="85" />
      <source>The server's certificate was not accepted ({error}).</source>
      <translation>服务器的证书未被接受（{error}）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="485" />
      <source>The setup script of {package} first tries to download a ready-made wheel for your exact Python, PyTorch and CUDA versions. None exists for this combination, so it falls back to compiling, which is slower and fills the log with download errors.</source>
      <translation>{package} 的安装脚本会先尝试下载与你的 Python、PyTorch 和 CUDA 版本完全对应的现成 wheel。这个组合没有现成的 wheel，所以它改为编译，这更慢，并且日志里会有很多下载错误。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="46" />
      <source>The shortcut could not be saved in {folder}: {why}.</source>
      <translation>无法把快捷方式保存到 {folder}：{why}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="196" />
      <source>The source archive already has files in the submodule folder {folder}.</source>
      <translation>源码压缩包的子模块文件夹 {folder} 中已经有文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/worktree.py" line="141" />
      <source>The source folder {folder} changed during the build; the wheel was built from the copy taken at its start ({copy}). Build again to include the changes.</source>
      <translation>编译期间源码文件夹 {folder} 发生了变化；wheel 是从编译开始时复制的副本编译的（{copy}）。要包含这些变化，请重新编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/pipeline.py" line="337" />
      <source>The source folder {folder} changed while the wizard copied it.</source>
      <translation>向导复制源码文件夹 {folder} 时，它发生了变化。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/worktree.py" line="137" />
      <source>The source folder {folder} could not be read after the build; the wheel was built from the copy taken at its start ({copy}).</source>
      <translation>编译后无法读取源码文件夹 {folder}；wheel 是从编译开始时复制的副本编译的（{copy}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/pipeline.py" line="346" />
      <source>The source folder {folder} disappeared before the build started.</source>
      <translation>源码文件夹 {folder} 在编译开始前消失了。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="70" />
      <source>The source folder {folder} does not exist.</source>
      <translation>源码文件夹 {folder} 不存在。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/worktree.py" line="131" />
      <source>The source folder {folder} was removed during the build; the wheel was built from the copy taken at its start ({copy}).</source>
      <translation>编译期间源码文件夹 {folder} 被删除了；wheel 是从编译开始时复制的副本编译的（{copy}）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1681" />
      <source>The source includes the C++17 &lt;filesystem&gt; header, which g++ provides from version 8 on (and MSVC from Visual Studio 2017 15.7): the compiler in use is older.</source>
      <translation>源码包含 C++17 的 &lt;filesystem&gt; 头文件，g++ 从 8 版开始提供它（MSVC 从 Visual Studio 2017 15.7 开始）：当前使用的编译器比这更旧。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1631" />
      <source>The source or PyTorch needs {required}, and the CUDA compiler does not compile it: the CUDA toolkit is older than that standard (C++17 needs CUDA 11 or newer, C++20 CUDA 12), or the build asks for an older standard.</source>
      <translation>源码或 PyTorch 需要 {required}，而 CUDA 编译器不支持：CUDA 工具包比该标准更旧（C++17 需要 CUDA 11 或更新版本，C++20 需要 CUDA 12），或者构建要求的是更旧的标准。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1233" />
      <source>The source uses GCC-style inline assembly, which Windows' compiler does not accept</source>
      <translation>源码使用了 GCC 风格的内联汇编，Windows 的编译器不接受</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1206" />
      <source>The source uses GCC/Clang-only features that the Microsoft compiler does not support</source>
      <translation>源码使用了 Microsoft 编译器不支持的 GCC/Clang 专有功能</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1477" />
      <source>The source uses {function} in a form that only newer GPU architectures provide (atomicAdd on double needs compute capability 6.0), and the build compiles for an older architecture: nvcc's or CMake's default, or an old entry in the architecture list.</source>
      <translation>源代码以只有较新 GPU 架构才提供的形式使用了 {function}（double 类型的 atomicAdd 需要计算能力 6.0），而构建针对的是更旧的架构：nvcc 或 CMake 的默认值，或架构列表中的旧条目。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1965" />
      <source>The source uses {symbol}, which recent PyTorch versions no longer have (the THC library and AT_CHECK went in PyTorch 1.11, torch._six in 2.0): it was written for an older PyTorch than the one installed.</source>
      <translation>源码使用了 {symbol}，而较新的 PyTorch 版本已经没有它了（THC 库和 AT_CHECK 在 PyTorch 1.11 中移除，torch._six 在 2.0 中移除）：源码是为比已安装版本更旧的 PyTorch 编写的。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1751" />
      <source>The source uses {what} in a form that the CUDA toolkit in use no longer (or does not yet) provide: CUDA 11 removed the old cuSPARSE functions, CUDA 12 changed Thrust and CUB.</source>
      <translation>源码使用 {what} 的方式，当前使用的 CUDA 工具包已不再提供（或尚未提供）：CUDA 11 移除了旧的 cuSPARSE 函数，CUDA 12 修改了 Thrust 和 CUB。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1751" />
      <source>The source was written for another CUDA version</source>
      <translation>源码是为其他 CUDA 版本编写的</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1965" />
      <source>The source was written for another PyTorch version: {symbol}</source>
      <translation>源码是为其他 PyTorch 版本编写的：{symbol}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1555" />
      <source>The source, PyTorch or pip requires {tool} {required}, and this build uses {found}: the toolchain is outside the range the source supports.</source>
      <translation>源码、PyTorch 或 pip 要求 {tool} {required}，而这次编译使用的是 {found}：工具链超出了源码支持的范围。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="250" />
      <source>The submodule folder {path} in {folder} is {problem}.</source>
      <translation>{folder} 中的子模块文件夹 {path} {problem}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="989" />
      <source>The system's C++ compiler is newer than the CUDA toolkit supports: nvcc's host_config.h names the newest gcc it accepts ("gcc versions later than N are not supported") and stops.</source>
      <translation>系统的 C++ 编译器比 CUDA 工具包支持的更新：nvcc 的 host_config.h 写明了它接受的最新 gcc 版本（“gcc versions later than N are not supported”），然后停止。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="593" />
      <source>The target Python could not be inspected.</source>
      <translation>无法检查目标 Python。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="629" />
      <source>The verification did not finish within {seconds} seconds (it was running the check '{check}').</source>
      <translation>验证没有在 {seconds} 秒内完成（当时正在运行检查“{check}”）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="631" />
      <source>The verification did not finish within {seconds} seconds.</source>
      <translation>验证没有在 {seconds} 秒内完成。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="475" />
      <source>The verification of {kernels} in one process {what}: verifying {missing} each in a process of its own.</source>
      <translation>在同一进程中对 {kernels} 的验证{what}：现在将 {missing} 各自在单独的进程中验证。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="190" />
      <source>The verification process ended ({exit}) without a report.</source>
      <translation>验证进程结束了（{exit}），但没有生成报告。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="152" />
      <source>The verification was cancelled.</source>
      <translation>验证已取消。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="374" />
      <source>The wizard could not read the answer of {python}: it ran, but what it printed is not the inspection's answer (cut off or damaged).</source>
      <translation>向导无法读取 {python} 的回答：它运行了，但它输出的内容不是检查的回答（被截断或已损坏）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="149" />
      <source>The wizard could not write {name} to disk.</source>
      <translation>向导无法把 {name} 写入磁盘。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="30" />
      <source>The wizard does not download over plain HTTP ({host}).</source>
      <translation>向导不通过不加密的 HTTP 下载（{host}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="174" />
      <source>The wizard found no Python interpreter to install into.</source>
      <translation>向导没有找到可以安装到的 Python 解释器。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="658" />
      <source>The wizard has no record of installing {name} into {python}.</source>
      <translation>向导没有把 {name} 安装到 {python} 的记录。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="939" />
      <source>The wizard itself runs no shell scripts. If a recipe has to, convert the script to Unix line endings (LF) first, or check the source out with git's core.autocrlf set to false.</source>
      <translation>向导本身不运行 shell 脚本。如果某个配方必须运行，请先把脚本转换为 Unix 换行符（LF），或者在 git 的 core.autocrlf 设为 false 的情况下检出源码。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="638" />
      <source>The wizard's install records could not be checked: {error} ({file}).</source>
      <translation>无法检查向导的安装记录：{error}（{file}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/installer.py" line="640" />
      <source>The wizard's install records could not be checked: {error}.</source>
      <translation>无法检查向导的安装记录：{error}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="64" />
      <source>The wizard's record says {name} {recorded} is installed in {python}, but {found} was verified there: it was changed outside the wizard. Install the version you want with the wizard ('{command}' lists what it recorded).</source>
      <translation>向导的记录显示 {python} 中安装的是 {name} {recorded}，但在那里验证的是 {found}：它在向导之外被更改过。请用向导安装你想要的版本（'{command}' 会列出它记录的内容）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="108" />
      <source>The {name} source does not say where its submodule {path} comes from.</source>
      <translation>{name} 源码没有说明它的子模块 {path} 从哪里获取。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="123" />
      <source>The {name} submodules are incomplete after the clone: {problem}.</source>
      <translation>克隆后 {name} 的子模块不完整：{problem}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="168" />
      <source>The {name} tag {ref} now points at a different commit.</source>
      <translation>{name} 的标签 {ref} 现在指向了另一个提交。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="122" />
      <source>The {name} variable is set to {value}, but no such program exists: the build uses the {role} {name} names, so it would fail.</source>
      <translation>{name} 变量被设为 {value}，但这个程序不存在：编译使用 {name} 指定的{role}，所以会失败。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="248" />
      <source>The {name}'s GPU part</source>
      <translation>{name}的 GPU 部分</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="284" />
      <source>Then choose 'Check again'.</source>
      <translation>然后选择“重新检查”。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="45" />
      <source>There is no desktop folder here, so the shortcut is only in the menu.</source>
      <translation>这里没有桌面文件夹，所以快捷方式只在菜单中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="151" />
      <source>There is no earlier passing verification to compare with.</source>
      <translation>没有更早的通过验证可供比较。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="266" />
      <source>There is no file at this path.</source>
      <translation>此路径下没有文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="116" />
      <source>There is no usable NVIDIA GPU here, so the {kernel} is the one that fits: it builds its CPU part, so you can walk through every step of the wizard.</source>
      <translation>这里没有可用的 NVIDIA GPU，所以适合的是 {kernel}：它会编译自己的 CPU 部分，让你可以走完向导的每一步。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="813" />
      <source>There is no verification of this build to decide about.</source>
      <translation>这次编译还没有可供决定的验证结果。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="842" />
      <source>There is no verification of this build to install after.</source>
      <translation>这次编译还没有验证结果，无法在验证之后安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="118" />
      <source>These checks passed before and fail now: {checks}.</source>
      <translation>这些检查以前通过，现在失败：{checks}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="771" />
      <source>These processes of the build could not be stopped: {pids}. End them (Task Manager, 'kill'), then start again; your environment is unchanged.</source>
      <translation>编译的这些进程无法停止：{pids}。请结束它们（任务管理器或 'kill'），然后重新开始；你的环境没有改变。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="92" />
      <source>This CUDA version does not accept your Visual Studio version</source>
      <translation>这个 CUDA 版本不接受你的 Visual Studio 版本</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="989" />
      <source>This CUDA version does not accept your gcc (or clang) version</source>
      <translation>这个 CUDA 版本不接受你的 gcc（或 clang）版本</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1006" />
      <source>This CUDA version no longer compiles for the GPU architecture {arch}</source>
      <translation>此 CUDA 版本已不再支持为 GPU 架构 {arch} 编译</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1696" />
      <source>This PyTorch does not know the GPU architecture {arch}</source>
      <translation>这个 PyTorch 不认识 GPU 架构 {arch}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="291" />
      <source>This PyTorch has no code for {names}.</source>
      <translation>这个 PyTorch 没有 {names} 的代码。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="832" />
      <source>This PyTorch no longer supports this GPU ({arch})</source>
      <translation>此 PyTorch 已不再支持这块 GPU（{arch}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="28" />
      <source>This Python comes from Debian or Ubuntu, which leave out Python's own installer of pip.</source>
      <translation>这个 Python 来自 Debian 或 Ubuntu，它们去掉了 Python 自带的 pip 安装程序。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="284" />
      <source>This Python did not answer within {seconds} seconds.</source>
      <translation>这个 Python 在 {seconds} 秒内没有回答。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="785" />
      <source>This Python has no C headers or import library, which every extension build needs. Downloads python.org's package of Python {version} from {source} (about 15 MB; {check}) and copies {where}. Files already there are left as they are; nothing else changes.</source>
      <translation>这个 Python 没有 C 头文件和导入库，而每次编译扩展都需要它们。将从 {source} 下载 python.org 的 Python {version} 包（约 15 MB；{check}），并复制{where}。已存在的文件保持不变；不会更改其他任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="789" />
      <source>This Python has no C headers, which every extension build needs. Downloads python.org's package of Python {version} from {source} (about 15 MB; {check}) and copies {where}. Files already there are left as they are; nothing else changes.</source>
      <translation>这个 Python 没有 C 头文件，而每次编译扩展都需要它们。将从 {source} 下载 python.org 的 Python {version} 包（约 15 MB；{check}），并复制{where}。已存在的文件保持不变；不会更改其他任何东西。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="32" />
      <source>This Python has no ensurepip module, so it cannot install pip by itself.</source>
      <translation>这个 Python 没有 ensurepip 模块，所以它无法自己安装 pip。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="235" />
      <source>This Python has no {what}, so no kernel can be built for it.</source>
      <translation>这个 Python 没有{what}，所以无法为它编译任何内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="828" />
      <source>This build did not pass its verification, so it is not installed without a warning.</source>
      <translation>这次编译没有通过验证，因此不会在没有警告的情况下安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="845" />
      <source>This build is already installed.</source>
      <translation>这次编译的结果已经安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="224" />
      <source>This computer does not meet Visual Studio Build Tools' requirements.</source>
      <translation>这台电脑不满足 Visual Studio Build Tools 的要求。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="367" />
      <source>This is Python {version} at {python}; kernels need Python {need} or newer with PyTorch.</source>
      <translation>这是位于 {python} 的 Python {version}；内核需要 Python {need} 或更新版本，并装有 PyTorch。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="222" />
      <source>This is a bug in the wizard; please report it with the log.</source>
      <translation>这是向导的一个错误；请附上日志报告它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="270" />
      <source>This is a folder, not a Python.</source>
      <translation>这是一个文件夹，不是 Python。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="522" />
      <source>This is a {bits}-bit Python {version}; CUDA kernels need a 64-bit Python.</source>
      <translation>这是一个 {bits} 位的 Python {version}；CUDA 内核需要 64 位的 Python。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="131" />
      <source>This is on the server's side: try again in a few minutes.</source>
      <translation>这是服务器端的问题：请几分钟后重试。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="378" />
      <source>This kernel needs an NVIDIA GPU.</source>
      <translation>这个内核需要 NVIDIA GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="325" />
      <source>This program did not behave like a working Python interpreter.</source>
      <translation>这个程序的表现不像一个正常工作的 Python 解释器。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="282" />
      <source>This step needs the system's package manager; run the commands shown yourself.</source>
      <translation>这一步需要系统的包管理器；请自己运行显示的命令。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="329" />
      <source>This user may not talk to the NVIDIA driver.</source>
      <translation>当前用户无权访问 NVIDIA 驱动。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/ai_apps/venvs.py" line="52" />
      <source>This venv's base Python ({base}) is gone, so the venv cannot start; recreate the venv.</source>
      <translation>这个虚拟环境（venv）所基于的 Python（{base}）已不存在，因此它无法启动；请重新创建这个虚拟环境。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="449" />
      <source>Timed as a model runs them: {calls} calls queued back to back between two CUDA events after a warm-up; each time is the median per call.</source>
      <translation>按模型的运行方式计时：预热后，在两个 CUDA 事件之间连续排队 {calls} 次调用；每个时间都是单次调用的中位数。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="452" />
      <source>Timed one call at a time (a report of an earlier version of the wizard): Python's overhead of each call is in every time, which a model hides.</source>
      <translation>逐次单独计时（旧版向导的报告）：每次调用的 Python 开销都计入了时间，而模型运行时会把它隐藏掉。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/cli/consent.py" line="86" />
      <source>To go on without being asked, add --yes:
  {command}{alternative}</source>
      <translation>如果要不经询问就继续，请加上 --yes：
  {command}{alternative}</translation>
    </message>
    <message>
      <source>Too many compiler processes ran at the same time for the amount of memory (RAM) in this computer, so the system stopped one of them. FlashAttention needs about 5 GB of RAM per compiler thread.</source>
      <translation type="obsolete">同时运行的编译器进程太多，超出了这台电脑的内存（RAM）所能承受的范围，所以系统强行结束了其中一个。FlashAttention 每个编译线程大约需要 5 GB 内存。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="272" />
      <source>Too many compiler processes ran at the same time for the amount of memory (RAM) in this computer, so the system stopped one of them; {memory_note}.</source>
      <translation>同时运行的编译进程太多，超出了这台计算机的内存（RAM），系统因此终止了其中一个；{memory_note}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/pipeline.py" line="165" />
      <source>Took {wheel} from the verified-wheel cache (verified on {date}); nothing was compiled.</source>
      <translation>已从已验证 wheel 缓存中取出 {wheel}（验证于 {date}）；未进行任何编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="26" />
      <source>Triton</source>
      <translation>Triton</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="150" />
      <source>Triton is missing (PyTorch's CUDA builds usually bring it); SageAttention needs Triton {want} for PyTorch {torch}.</source>
      <translation>缺少 Triton（PyTorch 的 CUDA 版通常会自带）；对于 PyTorch {torch}，SageAttention 需要 Triton {want}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="164" />
      <source>Triton {have} (it comes with PyTorch {torch}).</source>
      <translation>Triton {have}（随 PyTorch {torch} 一起安装）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="108" />
      <source>Try again later or from another network; a company network may block the download.</source>
      <translation>请稍后或换一个网络再试；公司网络可能会阻止下载。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="96" />
      <source>Try again later; if it persists, report this to the wizard's maintainers.</source>
      <translation>请稍后重试；如果问题持续存在，请报告给向导的维护者。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="825" />
      <source>Try again later; if it repeats, install the full Python {version} from python.org and use it instead.</source>
      <translation>请稍后重试；如果问题重复出现，请从 python.org 安装完整的 Python {version}，并改用它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="125" />
      <source>Try again later; if this persists, report it with the address above.</source>
      <translation>请稍后重试；如果问题持续存在，请附上上面的地址报告问题。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="376" />
      <source>Try again. If it happens again, save a report bundle (the details show what it printed) and choose another Python meanwhile.</source>
      <translation>请重试。如果再次发生，请保存一个报告包（详细信息中有它输出的内容），同时先另选一个 Python。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="286" />
      <source>Try again; if it happens again, the environment may be damaged (a hung import).</source>
      <translation>请重试；如果再次发生，这个环境可能已损坏（某个导入卡住了）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="125" />
      <source>Try again; if it keeps failing, choose a local copy (Kernel page → Local folder).</source>
      <translation>请重试；如果一直失败，请选择一份本地副本（内核页面 → 本地文件夹）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="358" />
      <source>Try again; if it keeps failing, let the wizard download the source archive or choose a local copy (Kernel page → Local folder).</source>
      <translation>请重试；如果一直失败，请让向导下载源码压缩包，或者选择一份本地副本（内核页面 → 本地文件夹）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/probe.toml" />
      <source>Turing (cc 7.5) or newer for its CUDA part</source>
      <translation>其 CUDA 部分需要 Turing（cc 7.5）或更新的 GPU</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="247" />
      <source>Turn on Windows long paths (LongPathsEnabled=1, then restart), set git's core.longpaths to true, and build in a short folder such as C:\ksw. The wizard does the first two (the Fix of its "Long paths" prerequisite, or `python -m app --headless fix long-paths`) and chooses a short build folder.</source>
      <translation>开启 Windows 长路径（LongPathsEnabled=1，然后重启），把 git 的 core.longpaths 设为 true，并在较短的文件夹（例如 C:\ksw）中编译。向导会完成前两项（使用“长路径”前置条件的“修复”，或运行 `python -m app --headless fix long-paths`），并选择一个较短的编译文件夹。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="486" />
      <source>Turn on long paths</source>
      <translation>开启长路径</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="56" />
      <source>Turning them on needs administrator rights once, then a restart.</source>
      <translation>开启它需要一次管理员权限，然后重启。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="143" />
      <source>Uninstall it first ({command}), then install triton-windows {want}.</source>
      <translation>请先卸载它（{command}），再安装 triton-windows {want}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="226" />
      <source>Unset {names} to build with cl.exe (the tested way).</source>
      <translation>取消设置 {names}，即可用 cl.exe 编译（经过测试的方式）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="130" />
      <source>Unset {name} (in a terminal: unset {name}) or point it to an installed {role}, then start the wizard again from that terminal.</source>
      <translation>请取消设置 {name}（在终端中：unset {name}），或者让它指向已安装的{role}，然后从那个终端重新启动向导。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="109" />
      <source>Update or repair the Visual Studio Installer; installing the Build Tools also updates it.</source>
      <translation>请更新或修复 Visual Studio Installer；安装 Build Tools 也会更新它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="210" />
      <source>Update the NVIDIA driver (CUDA {major} needs driver {need} or newer).</source>
      <translation>请更新 NVIDIA 驱动（CUDA {major} 需要 {need} 或更新版本的驱动）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1602" />
      <source>Update the NVIDIA driver (nvidia-smi shows its version and the newest CUDA it supports), or use a PyTorch and kernel built for an older CUDA that this driver supports.</source>
      <translation>请更新 NVIDIA 驱动（nvidia-smi 会显示其版本和所支持的最新 CUDA），或改用为此驱动所支持的较旧 CUDA 构建的 PyTorch 和内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="285" />
      <source>Updating the NVIDIA driver is safer.</source>
      <translation>更新 NVIDIA 驱动会更稳妥。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="219" />
      <source>Updating the NVIDIA driver removes this limit.</source>
      <translation>更新 NVIDIA 驱动可以去掉这个限制。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flashmla.toml" />
      <source>Upstream main ("Swap FlashMLA combine grid dimensions"); FlashMLA has no release tags. Dense decoding is SM90 only; the dense MHA prefill backward is SM100 only.</source>
      <translation>上游 main 分支（"Swap FlashMLA combine grid dimensions"）；FlashMLA 没有发布标签。稠密解码仅支持 SM90；稠密 MHA 预填充的反向仅支持 SM100。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/deepep.toml" />
      <source>Upstream main: V2 with the NCCL Gin backend (NCCL 2.30.4+) and NVSHMEM; JIT-compiled V2 kernels, the legacy Buffer API is still included.</source>
      <translation>上游 main 分支：带 NCCL Gin 后端（NCCL 2.30.4+）和 NVSHMEM 的 V2；V2 内核为 JIT 编译，仍包含旧版 Buffer API。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="439" />
      <source>Use WSL2 (the wizard can build there).</source>
      <translation>请使用 WSL2（本向导可以在那里编译）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1649" />
      <source>Use a CUDA toolkit that matches your PyTorch's CUDA version (and a C++ compiler it supports), then build again; the wizard's "CUDA toolkit" check shows both versions.</source>
      <translation>请使用与你的 PyTorch 的 CUDA 版本相匹配的 CUDA 工具包（以及它支持的 C++ 编译器），然后重新构建；向导的“CUDA 工具包”检查会显示两者的版本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1631" />
      <source>Use a CUDA toolkit that supports {required} and matches your PyTorch (PyTorch 2 needs C++17, so CUDA 11.8 or newer), then build again.</source>
      <translation>请使用支持 {required} 且与你的 PyTorch 匹配的 CUDA 工具包（PyTorch 2 需要 C++17，因此需要 CUDA 11.8 或更新版本），然后重新构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="354" />
      <source>Use a Linux machine (WSL2 counts).</source>
      <translation>请使用 Linux 机器（WSL2 也可以）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="954" />
      <source>Use a head dimension this FlashMLA version supports. The wizard's verification checks the values (not just that it ran) and uses supported shapes.</source>
      <translation>使用这个 FlashMLA 版本支持的 head 维度。向导的验证会检查数值（而不只是检查能否运行），并使用受支持的形状。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="921" />
      <source>Use a kernel version whose build passes the file list through a response file, or a shorter build folder; the recipe for this kernel may need an update.</source>
      <translation>使用一个通过响应文件传递文件列表的内核版本，或者使用更短的编译文件夹；这个内核的配方可能需要更新。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1965" />
      <source>Use a newer version of {package} that supports your PyTorch (or a fork that was updated), or install the PyTorch version it was written for in a separate environment.</source>
      <translation>请使用支持你的 PyTorch 的更新版 {package}（或已更新的分支），或者在单独的环境中安装它所针对的 PyTorch 版本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1916" />
      <source>Use a platform it supports (for most CUDA kernels Linux on x86-64, or WSL2 on Windows), or a fork or version made for this one; the wizard's catalog says which kernels fit this computer.</source>
      <translation>请使用它支持的平台（大多数 CUDA 内核支持 x86-64 上的 Linux，或 Windows 上的 WSL2），或者使用为当前平台制作的分支或版本；向导的内核目录会说明哪些内核适合这台电脑。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="281" />
      <source>Use a shorter folder or file name, or a folder closer to the top of the drive (on Windows: turn on long paths, in the Prerequisites step), or {alternative}.</source>
      <translation>请使用更短的文件夹名或文件名，或者更靠近驱动器根目录的文件夹（在 Windows 上：在“前置条件”步骤中开启长路径支持），或者{alternative}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="284" />
      <source>Use a shorter folder or file name, or a folder closer to the top of the drive (on Windows: turn on long paths, in the Prerequisites step).</source>
      <translation>请使用更短的文件夹名或文件名，或者更靠近驱动器根目录的文件夹（在 Windows 上：在“前置条件”步骤中开启长路径支持）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="594" />
      <source>Use a working Python: {where}.</source>
      <translation>请使用一个可用的 Python：{where}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1294" />
      <source>Use the NVSHMEM version DeepEP documents for this release (with IBGDA enabled), point NVSHMEM_DIR at it, and rebuild DeepEP from a clean build folder; or update DeepEP to a version that supports the installed NVSHMEM.</source>
      <translation>使用 DeepEP 为这个版本注明的 NVSHMEM 版本（启用 IBGDA），把 NVSHMEM_DIR 指向它，然后从干净的编译文件夹重新编译 DeepEP；或者把 DeepEP 更新到支持已安装 NVSHMEM 的版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="37" />
      <source>Use the https:// address of the file; if it came with the wizard, report this as a bug.</source>
      <translation>请使用该文件的 https:// 地址；如果这个地址是向导自带的，请把它作为问题报告。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="252" />
      <source>Use the newest CUDA toolkit if the build fails.</source>
      <translation>如果编译失败，请使用最新的 CUDA 工具包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="75" />
      <source>Use the source archive from the project's own page (GitHub), not a copy from elsewhere.</source>
      <translation>请使用项目官方页面（GitHub）上的源码压缩包，不要使用其他来源的副本。</translation>
    </message>
    <message>
      <source>Use {tool} {required}: install it, or choose a version of {package} made for the one you have, then build again. The wizard's prerequisite checks show which versions are in use.</source>
      <translation type="obsolete">请使用 {tool} {required}：安装它，或者选择适用于你现有版本的 {package} 版本，然后重新编译。向导的前置条件检查会显示正在使用哪些版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="472" />
      <source>Verified in a process of its own: the verification of {kernels} in one process {what}.</source>
      <translation>在单独的进程中验证：在同一进程中对 {kernels} 的验证{what}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="814" />
      <source>Verify the build first (the Verify step).</source>
      <translation>请先验证编译结果（“验证”步骤）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="225" />
      <source>Visual Studio 2022 needs 64-bit Windows 10 or 11 with current updates.</source>
      <translation>Visual Studio 2022 需要安装了最新更新的 64 位 Windows 10 或 11。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="170" />
      <source>Visual Studio Build Tools (MSVC), the C compiler on Windows</source>
      <translation>Visual Studio Build Tools（MSVC，Windows 上的 C 编译器）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="205" />
      <source>Visual Studio Build Tools are installed; Windows must restart to finish.</source>
      <translation>已安装 Visual Studio Build Tools；Windows 必须重启才能完成。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="209" />
      <source>Visual Studio Build Tools are installed; the installer has started a restart.</source>
      <translation>已安装 Visual Studio Build Tools；安装程序已开始重启电脑。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="201" />
      <source>Visual Studio Build Tools with the C++ compiler are installed.</source>
      <translation>已安装带有 C++ 编译器的 Visual Studio Build Tools。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="99" />
      <source>Visual Studio is installed but Windows must restart to finish installing it.</source>
      <translation>已安装 Visual Studio，但 Windows 必须重启才能完成安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="102" />
      <source>Visual Studio is installed but cannot be used: {why}.</source>
      <translation>已安装 Visual Studio，但无法使用：{why}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="228" />
      <source>Visual Studio is running, so the installer could not change it.</source>
      <translation>Visual Studio 正在运行，所以安装程序无法更改它。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="113" />
      <source>Visual Studio's C++ library needs CUDA 12.4 or newer</source>
      <translation>Visual Studio 的 C++ 库需要 CUDA 12.4 或更高版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/pipeline.py" line="341" />
      <source>Wait until nothing writes into it, then build again.</source>
      <translation>请等到没有程序再写入它，然后重新编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/locks.py" line="158" />
      <source>Waiting: {who} is using this. This run goes on as soon as it has finished (cancel to stop waiting).</source>
      <translation>正在等待：{who} 正在使用它。它结束后本次运行会立即继续（可取消以停止等待）。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/wan2gp.toml" />
      <source>Wan2GP has no attention mode for this kernel.</source>
      <translation>Wan2GP 没有针对这个内核的注意力模式。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/view.py" line="44" />
      <source>What failed:</source>
      <translation>失败的项目：</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/comfyui.toml" />
      <source>When it starts, ComfyUI's console says "Using Flash Attention".</source>
      <translation>ComfyUI 启动时，控制台会显示 "Using Flash Attention"。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/comfyui.toml" />
      <source>When it starts, ComfyUI's console says "Using sage attention".</source>
      <translation>ComfyUI 启动时，控制台会显示 "Using sage attention"。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/framepack.toml" />
      <source>When it starts, FramePack's console says "Sage Attn is installed!" or "Flash Attn is installed!".</source>
      <translation>FramePack 启动时，控制台会显示 "Sage Attn is installed!" 或 "Flash Attn is installed!"。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="472" />
      <source>Whether the GPUs are connected with NVLink could not be checked; {name} needs NVLink.</source>
      <translation>无法检查 GPU 是否通过 NVLink 连接；{name} 需要 NVLink。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="227" />
      <source>Whether the GPUs are connected with NVLink could not be read from the driver.</source>
      <translation>无法从驱动读取 GPU 是否通过 NVLink 连接。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="230" />
      <source>Which commit {name} pins for {path} could not be read.</source>
      <translation>无法读取 {name} 为 {path} 固定的是哪个提交。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="24" />
      <source>Why it matters: PyTorch builds C++/CUDA extensions with Microsoft's C++ compiler (cl.exe), and nvcc uses it for the host code. It comes with Visual Studio or the free Visual Studio Build Tools.</source>
      <translation>为什么重要：PyTorch 用微软的 C++ 编译器（cl.exe）编译 C++/CUDA 扩展，nvcc 也用它编译主机代码。它随 Visual Studio 或免费的 Visual Studio Build Tools 提供。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="27" />
      <source>Why it matters: PyTorch builds C++/CUDA extensions with g++, and nvcc uses gcc for the host code.</source>
      <translation>为什么重要：PyTorch 用 g++ 编译 C++/CUDA 扩展，nvcc 用 gcc 编译主机代码。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="27" />
      <source>Why it matters: SageAttention runs Triton kernels (compiled when first used), and Triton only works with the PyTorch version it was made for.</source>
      <translation>为什么重要：SageAttention 会运行 Triton 内核（首次使用时编译），而 Triton 只能与它所对应的 PyTorch 版本一起工作。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="23" />
      <source>Why it matters: a kernel build needs several GB for sources and object files, and each compile thread of the heaviest kernels needs about {gb} GB of memory; too many at once and the build is killed for lack of memory.</source>
      <translation>为什么重要：编译一个内核需要几 GB 的空间存放源码和目标文件，最重的内核每个编译线程需要约 {gb} GB 内存；同时编译太多，编译就会因内存不足而被终止。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="28" />
      <source>Why it matters: each CUDA version accepts only certain compiler versions (include/crt/host_config.h); a newer compiler stops the build with 'unsupported Microsoft Visual Studio version' or 'unsupported GNU version'.</source>
      <translation>为什么重要：每个 CUDA 版本只接受特定版本的编译器（include/crt/host_config.h）；更新的编译器会让编译停止，并报告“unsupported Microsoft Visual Studio version”或“unsupported GNU version”。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="16" />
      <source>Why it matters: kernel sources (CUTLASS) and the build's intermediate files have paths longer than Windows' classic 260-character limit; without long paths the build stops with 'Filename too long' or 'C1083: Cannot open include file'.</source>
      <translation>为什么重要：内核源码（CUTLASS）和编译的中间文件的路径超过了 Windows 传统的 260 个字符限制；不开启长路径，编译会停止，并报告“Filename too long”或“C1083: Cannot open include file”。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="22" />
      <source>Why it matters: kernels are built against the PyTorch in this environment, with its pip; ninja compiles many files at once (without it a build can take hours).</source>
      <translation>为什么重要：内核是针对这个环境中的 PyTorch、用它的 pip 编译的；ninja 可以同时编译多个文件（没有它，一次编译可能要几个小时）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="24" />
      <source>Why it matters: nvcc, the CUDA compiler, turns the kernels into GPU code. Its major version must match the CUDA that PyTorch was built with, the NVIDIA driver must support it, and it must know your GPU's architecture.</source>
      <translation>为什么重要：CUDA 编译器 nvcc 把内核编译成 GPU 代码。它的主版本号必须与编译 PyTorch 所用的 CUDA 一致，NVIDIA 驱动必须支持它，而且它必须认识你的 GPU 的架构。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="340" />
      <source>Why: {why}</source>
      <translation>说明：{why}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="48" />
      <source>Windows PowerShell could not be started, so no shortcut was made ({why}).</source>
      <translation>无法启动 Windows PowerShell，所以没有创建快捷方式（{why}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="73" />
      <source>Windows SDK: {sdks} (needed for windows.h and the system libraries).</source>
      <translation>Windows SDK：{sdks}（windows.h 和系统库需要它）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="501" />
      <source>Windows could not load {what}, a part of PyTorch itself, not of the kernel. Most often the Microsoft Visual C++ Redistributable (the VC++ runtime that PyTorch's DLLs need) is missing or too old; otherwise the PyTorch installation is damaged or is not made for this system.</source>
      <translation>Windows 无法加载 {what}，它属于 PyTorch 本身，而不是内核。最常见的原因是缺少 Microsoft Visual C++ 可再发行组件（PyTorch 的 DLL 所需的 VC++ 运行库）或版本太旧；否则就是 PyTorch 的安装已损坏，或不是为这个系统构建的。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="50" />
      <source>Windows could not make the shortcut (PowerShell exit code {code}): {why}</source>
      <translation>Windows 无法创建快捷方式（PowerShell 退出代码 {code}）：{why}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="47" />
      <source>Windows could not save the shortcut to {place}: {why}.</source>
      <translation>Windows 无法把快捷方式保存到{place}：{why}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="51" />
      <source>Windows did not name the folder of {place}, so no shortcut was put there.</source>
      <translation>Windows 没有给出{place}的文件夹，所以没有在那里放快捷方式。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="247" />
      <source>Windows limits file paths to 260 characters unless long paths are switched on, and the kernel sources contain very deeply nested files.</source>
      <translation>除非开启长路径支持，Windows 把文件路径限制在 260 个字符以内，而内核源码中有嵌套很深的文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="53" />
      <source>Windows long paths are off, so deep source folders and build files fail ('Filename too long').</source>
      <translation>Windows 长路径已关闭，所以层级很深的源码文件夹和编译文件会失败（“Filename too long”）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1143" />
      <source>With --no-build-isolation pip does not install the package's build requirements: the setup script imports them from the target environment, where this one is missing.</source>
      <translation>使用 --no-build-isolation 时，pip 不会安装包的编译依赖：安装脚本从目标环境中导入它们，而这个包在目标环境中缺失。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>With CUDA 12.3 to 12.7 or 12.9, hopper/setup.py downloads NVIDIA's nvcc 12.6 and ptxas 12.8 during the build (internet needed); with CUDA 12.8 or 13.x it builds offline with the toolkit it finds.</source>
      <translation>使用 CUDA 12.3 至 12.7 或 12.9 时，hopper/setup.py 会在构建期间下载 NVIDIA 的 nvcc 12.6 和 ptxas 12.8（需要联网）；使用 CUDA 12.8 或 13.x 时，它会用找到的工具包离线构建。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="305" />
      <source>You can build it again, save a report bundle for a bug report, or install it anyway (not recommended).</source>
      <translation>你可以重新编译、保存报告包用于问题报告，或者仍然安装（不推荐）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="239" />
      <source>Your {name}</source>
      <translation>你的 {name}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/toolchain/host_config.py" line="77" />
      <source>_MSC_VER up to {hi} (MSVC up to 14.{minor})</source>
      <translation>_MSC_VER 最高 {hi}（MSVC 最高 14.{minor}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/toolchain/host_config.py" line="79" />
      <source>_MSC_VER {lo} or newer (MSVC 14.{minor} or newer)</source>
      <translation>_MSC_VER {lo} 或更新（MSVC 14.{minor} 或更新）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/toolchain/host_config.py" line="73" />
      <source>_MSC_VER {lo}–{hi} (MSVC 14.{lo_minor}–14.{hi_minor}, Visual Studio {lo_year}–{hi_year})</source>
      <translation>_MSC_VER {lo}–{hi}（MSVC 14.{lo_minor}–14.{hi_minor}，Visual Studio {lo_year}–{hi_year}）</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention3.toml" />
      <source>a Blackwell GPU with FP4 tensor cores (cc 10.0, 12.0 or 12.1: B200, RTX 50xx, DGX Spark); Hopper, Ada and Ampere GPUs use SageAttention 2</source>
      <translation>带 FP4 张量核心的 Blackwell GPU（cc 10.0、12.0 或 12.1：B200、RTX 50xx、DGX Spark）；Hopper、Ada 和 Ampere GPU 请使用 SageAttention 2</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="171" />
      <source>a C compiler (gcc or clang)</source>
      <translation>C 编译器（gcc 或 clang）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/processes.py" line="124" />
      <source>a DLL it needs was not found</source>
      <translation>找不到它需要的某个 DLL</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/model.py" line="158" />
      <source>a GPU with compute capability {ccs}</source>
      <translation>计算能力为 {ccs} 的 GPU</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>a Hopper GPU (H100, H800, H200; cc 9.0)</source>
      <translation>Hopper GPU（H100、H800、H200；cc 9.0）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="254" />
      <source>a file in {path} grew larger than this drive or this session allows</source>
      <translation>{path} 中的某个文件超出了这个驱动器或本次会话允许的大小</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="75" />
      <source>a library is missing, or the compiled parts do not fit a library they use</source>
      <translation>缺少某个库，或编译出的部分与其使用的库不匹配</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="231" />
      <source>a name in {path} is too long ({longest} characters; this drive allows {limit})</source>
      <translation>{path} 中有一个名称太长（{longest} 个字符；这个驱动器最多允许 {limit} 个）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="204" />
      <source>a newer one</source>
      <translation>更新的版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="40" />
      <source>a prerequisite is missing, is the wrong version, or a setting points at the wrong place</source>
      <translation>某个前提条件缺失或版本不对，或某个设置指向了错误的位置</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="344" />
      <source>a running program uses it</source>
      <translation>有正在运行的程序在使用它</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="27" />
      <source>about 200 MB</source>
      <translation>约 200 MB</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention.toml" />
      <source>an Ampere, Ada, Hopper or Blackwell RTX GPU (cc 8.0, 8.6, 8.9, 9.0 or 12.0: A100, RTX 30xx, RTX 40xx, H100/H200, RTX 50xx)</source>
      <translation>Ampere、Ada、Hopper 或 Blackwell RTX GPU（cc 8.0、8.6、8.9、9.0 或 12.0：A100、RTX 30xx、RTX 40xx、H100/H200、RTX 50xx）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/model.py" line="163" />
      <source>an NVIDIA GPU</source>
      <translation>一块 NVIDIA GPU</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/processes.py" line="122" />
      <source>an access violation</source>
      <translation>内存访问冲突</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/processes.py" line="123" />
      <source>an illegal instruction</source>
      <translation>非法指令</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="348" />
      <source>an install record points to it</source>
      <translation>有安装记录指向它</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/toolchain/host_config.py" line="69" />
      <source>any MSVC version (this CUDA does not check)</source>
      <translation>任何 MSVC 版本（这个 CUDA 不做检查）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="45" />
      <source>any gcc version</source>
      <translation>任何 gcc 版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="35" />
      <source>any gcc version (this CUDA does not check)</source>
      <translation>任何 gcc 版本（这个 CUDA 不做检查）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="394" />
      <source>as fast as PyTorch's {backend}</source>
      <translation>与 PyTorch 的{backend}一样快</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="407" />
      <source>as fast as plain PyTorch ({reference}) doing the same work</source>
      <translation>与完成相同工作的纯 PyTorch（{reference}）一样快</translation>
    </message>
    <message>
      <source>as fast as plain PyTorch ({reference}) moving the same data</source>
      <translation type="obsolete">与搬运相同数据的纯 PyTorch 做法（{reference}）一样快</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="453" />
      <source>at least {count}</source>
      <translation>至少 {count} 个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="39" />
      <source>backward: the kernel's output is not connected to autograd, so no gradients can be computed (this build has no backward).</source>
      <translation>反向：内核的输出没有接入 autograd，因此无法计算梯度（这个编译版本没有反向计算）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="60" />
      <source>build folder</source>
      <translation>编译文件夹</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="59" />
      <source>build log</source>
      <translation>编译日志</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="58" />
      <source>build output</source>
      <translation>编译输出</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/worktree.py" line="90" />
      <source>building in a fresh copy of the source: {path} (the original folder is not written to)</source>
      <translation>在源码的一份新副本中编译：{path}（不会写入原来的文件夹）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/worktree.py" line="88" />
      <source>building in {path}, the copy of an earlier build with the same source and settings (its compiled files are reused)</source>
      <translation>在 {path} 中编译，这是之前一次使用相同源码和设置的编译留下的副本（会复用它已编译的文件）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="77" />
      <source>building or installing the wheel</source>
      <translation>构建或安装 wheel</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>builds sm_80 and sm_90 (with nvcc &gt;= 11.8) only: no Blackwell</source>
      <translation>只编译 sm_80 和 sm_90（需要 nvcc &gt;= 11.8）：不支持 Blackwell</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="56" />
      <source>built-in attention (SDPA's {method} method, the fastest here)</source>
      <translation>内置注意力（SDPA 的 {method} 方法，本机上最快）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="53" />
      <source>built-in attention (SDPA, its fastest method here)</source>
      <translation>内置注意力（SDPA，这里它最快的方法）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="32" />
      <source>causal</source>
      <translation>因果掩码</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="35" />
      <source>checking the prerequisites (compiler, CUDA toolkit, PyTorch, Python)</source>
      <translation>检查前提条件（编译器、CUDA 工具包、PyTorch、Python）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="779" />
      <source>checks its SHA-256</source>
      <translation>会校验它的 SHA-256</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="272" />
      <source>choose a folder on a disk with more space</source>
      <translation>选择一个位于空间更充足的磁盘上的文件夹</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="278" />
      <source>choose a folder on a writable drive</source>
      <translation>选择一个位于可写驱动器上的文件夹</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="275" />
      <source>choose a folder you may write to</source>
      <translation>选择一个你有写入权限的文件夹</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/paths.py" line="29" />
      <source>choose another build folder (set {var} to it)</source>
      <translation>另选一个编译文件夹（把 {var} 设为它）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/paths.py" line="28" />
      <source>choose another data folder (set {var} to it)</source>
      <translation>另选一个数据文件夹（把 {var} 设为它）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="289" />
      <source>choose another folder</source>
      <translation>选择另一个文件夹</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="292" />
      <source>choose another name</source>
      <translation>选择另一个名称</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="129" />
      <source>choose another one on the Hardware step</source>
      <translation>在“硬件”步骤中另选一个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="136" />
      <source>choose it on the Kernel step</source>
      <translation>在“内核”步骤中选择</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="170" />
      <source>choose one on the Hardware step</source>
      <translation>在“硬件”步骤中选择一个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="54" />
      <source>compiling CUDA kernels can take several GB of RAM per compiler process</source>
      <translation>编译 CUDA 内核时，每个编译进程可能需要数 GB 内存</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="57" />
      <source>compiling the package's source</source>
      <translation>编译软件包的源代码</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="64" />
      <source>compiling, when the compiler itself crashed or was stopped</source>
      <translation>编译时编译器本身崩溃或被终止</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="34" />
      <source>decoding</source>
      <translation>解码</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="61" />
      <source>downloaded source</source>
      <translation>已下载的源码</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="650" />
      <source>earlier</source>
      <translation>更早</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="233" />
      <source>empty</source>
      <translation>是空的</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="645" />
      <source>ended ({exit}) during {kernel}</source>
      <translation>在 {kernel} 运行时结束（{exit}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="643" />
      <source>ended ({exit}) during {kernel}'s check '{check}'</source>
      <translation>在 {kernel} 的检查“{check}”中结束（{exit}）</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>every head size (64 to 256), fp16, bf16 and FP8 forward, split-KV, paged KV, sliding windows and softcap (233 units)</source>
      <translation>所有头大小（64 到 256），fp16、bf16 以及 FP8 前向，split-KV、分页 KV、滑动窗口和 softcap（233 个编译单元）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="158" />
      <source>exactly {version}</source>
      <translation>恰好 {version}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/processes.py" line="142" />
      <source>exit code {code}</source>
      <translation>退出代码 {code}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/processes.py" line="140" />
      <source>exit code {code}, {meaning}</source>
      <translation>退出代码 {code}，{meaning}</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>first version that adds /Zc:__cplusplus on Windows when DISTUTILS_USE_SDK=1</source>
      <translation>第一个在 Windows 上且 DISTUTILS_USE_SDK=1 时添加 /Zc:__cplusplus 的版本</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>first version that reads FLASH_ATTN_CUDA_ARCHS</source>
      <translation>第一个读取 FLASH_ATTN_CUDA_ARCHS 的版本</translation>
    </message>
    <message>
      <source>flash-attn's download of a ready-made wheel failed (network)</source>
      <translation type="obsolete">flash-attn 下载现成 wheel 失败（网络问题）</translation>
    </message>
    <message>
      <source>flash-attn's setup first tries to download a ready-made wheel for your exact Python, PyTorch and CUDA versions. None exists for this combination, so it falls back to compiling, which is slower and fills the log with download errors.</source>
      <translation type="obsolete">flash-attn 的安装脚本会先尝试下载与你的 Python、PyTorch 和 CUDA 版本完全对应的现成 wheel。这个组合没有现成的 wheel，所以它改为编译，这更慢，并且日志里会有很多下载错误。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="167" />
      <source>free space unknown</source>
      <translation>剩余空间未知</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="33" />
      <source>full attention</source>
      <translation>完整注意力</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="197" />
      <source>gcc and g++ {version} are installed.</source>
      <translation>已安装 gcc 和 g++ {version}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="194" />
      <source>gcc and g++ {version} are installed; the build uses {chosen}.</source>
      <translation>已安装 gcc 和 g++ {version}；编译使用 {chosen}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="42" />
      <source>gcc older than {version}</source>
      <translation>比 gcc {version} 更旧的版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="202" />
      <source>gcc {gcc} and g++ {gxx} are installed.</source>
      <translation>已安装 gcc {gcc} 和 g++ {gxx}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="199" />
      <source>gcc {gcc} and g++ {gxx} are installed; the build uses {chosen}.</source>
      <translation>已安装 gcc {gcc} 和 g++ {gxx}；编译使用 {chosen}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="164" />
      <source>gcc {version} fits CUDA {cuda} ({accepted}).</source>
      <translation>gcc {version} 与 CUDA {cuda} 匹配（{accepted}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="158" />
      <source>gcc {version} is not accepted by CUDA {cuda}, which accepts {accepted}.</source>
      <translation>CUDA {cuda} 不接受 gcc {version}，它接受 {accepted}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="38" />
      <source>gcc {version} or newer</source>
      <translation>gcc {version} 或更新版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="41" />
      <source>gcc {version} or older</source>
      <translation>gcc {version} 或更旧版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="187" />
      <source>gcc/g++ are there but did not report a gcc version (is it clang?).</source>
      <translation>gcc/g++ 存在，但没有报告 gcc 版本（是 clang 吗？）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="66" />
      <source>git ({git}): core.longpaths = {state}</source>
      <translation>git（{git}）：core.longpaths = {state}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="460" />
      <source>git config failed (exit code {code}).</source>
      <translation>git config 失败了（退出代码 {code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="356" />
      <source>git could not fetch {name}.</source>
      <translation>git 无法获取 {name}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/fetch.py" line="124" />
      <source>git is needed to fetch {name} this way, but it is not installed.</source>
      <translation>以这种方式获取 {name} 需要 git，但没有安装 git。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="463" />
      <source>git now allows long paths (core.longpaths = true).</source>
      <translation>git 现在允许长路径（core.longpaths = true）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="69" />
      <source>git's core.longpaths is off, so cloning sources with deep folders can fail.</source>
      <translation>git 的 core.longpaths 已关闭，所以克隆层级很深的源码可能会失败。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="516" />
      <source>git's long paths are on.</source>
      <translation>git 的长路径已开启。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="63" />
      <source>git: not installed (sources are downloaded as archives instead).</source>
      <translation>git：没有安装（改为以压缩包形式下载源码）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="679" />
      <source>halved after running out of memory: {what}</source>
      <translation>内存不足后减半：{what}</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>head size 128, fp16 and bf16, forward and backward, causal, GQA and variable-length batches (6 units)</source>
      <translation>头大小 128，fp16 和 bf16，前向和反向，因果掩码、GQA 和变长批次（6 个编译单元）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="135" />
      <source>head size {d}</source>
      <translation>头维度 {d}</translation>
    </message>
    <message>
      <location filename="../../" line="resources/speed/workloads.toml" />
      <source>images</source>
      <translation>图像</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="224" />
      <source>import library ({name})</source>
      <translation>导入库（{name}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="84" />
      <source>importing the installed package</source>
      <translation>导入已安装的软件包</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="235" />
      <source>incomplete (it has no {marker})</source>
      <translation>不完整（缺少 {marker}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="346" />
      <source>installs.json is damaged: it may point here</source>
      <translation>installs.json 已损坏：它可能指向这里</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="150" />
      <source>invalid numbers (NaN or infinity)</source>
      <translation>无效数值（NaN 或无穷大）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/processes.py" line="125" />
      <source>it stopped itself (abort or a failed check)</source>
      <translation>它自行中止了（abort 或某项检查失败）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="130" />
      <source>its Python environment ({python}) is gone or does not start</source>
      <translation>它所在的 Python 环境（{python}）已不存在或无法启动</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="732" />
      <source>its headers are Python {found}, not {version}</source>
      <translation>它的头文件属于 Python {found}，而不是 {version}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="296" />
      <source>kernel version</source>
      <translation>内核版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/processes.py" line="134" />
      <source>killed by signal {signal}</source>
      <translation>被信号 {signal} 终止</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="62" />
      <source>leftover temporary folder</source>
      <translation>残留的临时文件夹</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="351" />
      <source>less than a day old: a step may still write it</source>
      <translation>不到一天：某个步骤可能还会写入它</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="71" />
      <source>linking the compiled files</source>
      <translation>链接已编译的文件</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention.toml" />
      <source>main after 2.2.0: sm_120a for RTX 50xx, the return_lse fix for grouped-query attention, torch.compile registration fixed on Hopper</source>
      <translation>2.2.0 之后的 main：为 RTX 50xx 编译 sm_120a，修复分组查询注意力的 return_lse，修复 Hopper 上的 torch.compile 注册</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn_3.toml" />
      <source>main at 2026-08-15: builds offline with CUDA 12.8 and 13.x (release v2.8.3's hopper/setup.py downloads nvcc for every CUDA but 12.8)</source>
      <translation>2026-08-15 的 main 分支：可使用 CUDA 12.8 和 13.x 离线构建（v2.8.3 版本的 hopper/setup.py 对除 12.8 外的所有 CUDA 版本都会下载 nvcc）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="95" />
      <source>matches PyTorch's CUDA {cuda}</source>
      <translation>与 PyTorch 的 CUDA {cuda} 一致</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="227" />
      <source>missing</source>
      <translation>不存在</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="157" />
      <source>newer than {version}</source>
      <translation>比 {version} 更新的版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="86" />
      <source>ninja (the build tool PyTorch compiles with in parallel, from PyPI)</source>
      <translation>ninja（PyTorch 用来并行编译的编译工具，来自 PyPI）</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1264" />
      <source>ninja could not start the compiler (CreateProcess failed)</source>
      <translation>ninja 无法启动编译器（CreateProcess failed）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="145" />
      <source>ninja is missing, so the big kernels would compile one file at a time (hours instead of minutes).</source>
      <translation>缺少 ninja，所以大的内核只能一次编译一个文件（要几个小时而不是几分钟）。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1264" />
      <source>ninja runs each compile step by starting the compiler (cl.exe or nvcc) by name, and Windows found no such program on the PATH: the build did not run inside the Visual Studio developer environment, or the CUDA bin folder is not on the PATH.</source>
      <translation>ninja 通过程序名启动编译器（cl.exe 或 nvcc）来运行每个编译步骤，而 Windows 在 PATH 中找不到这个程序：编译没有在 Visual Studio 开发者环境中运行，或者 CUDA 的 bin 文件夹不在 PATH 中。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="208" />
      <source>no</source>
      <translation>否</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="414" />
      <source>no GPU code</source>
      <translation>不含 GPU 代码</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="35" />
      <source>no MSVC toolset</source>
      <translation>没有 MSVC 工具集</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="227" />
      <source>no answer in time</source>
      <translation>没有及时响应</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="336" />
      <source>no exit code</source>
      <translation>没有退出码</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="330" />
      <source>no measurement</source>
      <translation>没有测量结果</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="37" />
      <source>no result</source>
      <translation>没有结果</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="209" />
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="207" />
      <source>none (CPU-only build)</source>
      <translation>没有（仅 CPU 版本）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="277" />
      <source>none (no CUDA build of PyTorch)</source>
      <translation>没有（不是 CUDA 版本的 PyTorch）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="72" />
      <source>none found</source>
      <translation>没有找到</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="219" />
      <source>not on PATH outside the Visual Studio environment</source>
      <translation>在 Visual Studio 环境之外不在 PATH 中</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="231" />
      <source>not readable</source>
      <translation>无法读取</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/longpaths.py" line="46" />
      <source>not set</source>
      <translation>未设置</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="189" />
      <source>nvcc checks the compiler itself when the build starts.</source>
      <translation>编译开始时 nvcc 会自己检查编译器。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1498" />
      <source>nvcc compiles the host part of the kernel with another C++ compiler, and refuses {compiler}: on Windows usually the 32-bit (x86) cl.exe instead of the 64-bit one, elsewhere a compiler (clang, Apple clang) or version this CUDA release does not support.</source>
      <translation>nvcc 用另一个 C++ 编译器编译内核的主机部分，但拒绝了 {compiler}：在 Windows 上通常是用了 32 位（x86）的 cl.exe 而不是 64 位的，在其他系统上则是此 CUDA 版本不支持的编译器（clang、Apple clang）或版本。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1049" />
      <source>nvcc does not know the GPU architecture the build asks for: the toolkit is older than the GPU generation (sm_120, RTX 50 series / Blackwell, needs CUDA 12.8 or newer; sm_90 needs 11.8; sm_75 needs 10.0), or the kernel's setup.py hard-codes an architecture your toolkit does not have (CUDA 13 no longer compiles for compute_50 to compute_72).</source>
      <translation>nvcc 不认识构建所要求的 GPU 架构：工具包比该 GPU 代际更旧（sm_120，即 RTX 50 系列 / Blackwell，需要 CUDA 12.8 或更新版本；sm_90 需要 11.8；sm_75 需要 10.0），或者内核的 setup.py 写死了你的工具包所没有的架构（CUDA 13 已不再支持 compute_50 到 compute_72）。</translation>
    </message>
    <message>
      <source>nvcc does not know the GPU architecture the build asks for: the toolkit is older than the GPU generation (sm_120, RTX 50 series / Blackwell, needs CUDA 12.8 or newer; sm_90 needs 11.8; sm_75 needs 10.0), or the kernel's setup.py hard-codes an architecture your toolkit does not have.</source>
      <translation type="obsolete">nvcc 不认识编译所要求的 GPU 架构：工具包比这一代 GPU 更旧（sm_120，即 RTX 50 系列 / Blackwell，需要 CUDA 12.8 或更高版本；sm_90 需要 11.8；sm_75 需要 10.0），或者内核的 setup.py 写死了你的工具包不支持的架构。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>nvcc uses 4 threads per job, fixed (NVCC_THREADS not read); builds sm_80 and sm_90 (with nvcc &gt;= 11.8) only: no Blackwell</source>
      <translation>nvcc 每个任务固定使用 4 个线程（不读取 NVCC_THREADS）；只编译 sm_80 和 sm_90（需要 nvcc &gt;= 11.8）：不支持 Blackwell</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="142" />
      <source>nvcc will warn that this MSVC is deprecated for CUDA {cuda}.</source>
      <translation>nvcc 会警告这个 MSVC 对 CUDA {cuda} 来说已过时。</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>official wheels also for CUDA 13 (cu13) and Linux aarch64</source>
      <translation>官方 wheel 也提供 CUDA 13（cu13）和 Linux aarch64 版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="35" />
      <source>on the CPU</source>
      <translation>在 CPU 上</translation>
    </message>
    <message>
      <location filename="../../" line="resources/speed/workloads.toml" />
      <source>one reference shape</source>
      <translation>一个参考尺寸</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="128" />
      <source>pass another one with {option}</source>
      <translation>用 {option} 指定另一个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="135" />
      <source>pass it with {option}</source>
      <translation>用 {option} 指定</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/pipfix.py" line="89" />
      <source>pip could not be installed (ensurepip exit code {code}).</source>
      <translation>无法安装 pip（ensurepip 退出代码 {code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="412" />
      <source>pip could not install {what} (exit code {code}).</source>
      <translation>pip 无法安装 {what}（退出代码 {code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="404" />
      <source>pip could not reach the download server ({server}) to install {what}.</source>
      <translation>pip 无法连接下载服务器（{server}），未能安装 {what}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1946" />
      <source>pip found no version of {tool} for this platform: OpenAI's triton is made for Linux only, and triton-windows, its community build, for Windows only.</source>
      <translation>pip 找不到适用于此平台的 {tool}：OpenAI 的 triton 只提供 Linux 版本，而社区构建的 triton-windows 只提供 Windows 版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="395" />
      <source>pip leaves the environment consistent; run the fix again to finish.</source>
      <translation>pip 会让环境保持一致；再次运行修复即可完成。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="47" />
      <source>pip or git could not find or fetch something: a version that does not exist for this Python or platform, a pin without its index URL, or the network</source>
      <translation>pip 或 git 找不到或取不到某样东西：该版本没有适用于此 Python 或平台的发行版、固定版本缺少对应的索引地址，或是网络问题</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/explain.py" line="400" />
      <source>pip said that packages installed before conflict with the new ones ("pip's dependency resolver does not currently take into account ..."): that is a note, not a failure of this install.</source>
      <translation>pip 提示之前已安装的软件包与新安装的软件包存在冲突（"pip's dependency resolver does not currently take into account ..."）：这只是提示，并不是本次安装失败。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="404" />
      <source>plain PyTorch ({reference}) could not be timed</source>
      <translation>纯 PyTorch 做法（{reference}）无法计时</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="55" />
      <source>plain math attention</source>
      <translation>普通数学注意力（math）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="50" />
      <source>preparing the build (setup.py, CMake, package metadata)</source>
      <translation>准备构建（setup.py、CMake、包元数据）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="534" />
      <source>reg.exe could not change the setting (exit code {code}).</source>
      <translation>reg.exe 无法更改这项设置（退出代码 {code}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="399" />
      <source>remove {path}</source>
      <translation>删除 {path}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="43" />
      <source>resolving or downloading packages</source>
      <translation>解析或下载软件包</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="106" />
      <source>run: {command}</source>
      <translation>运行：{command}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="91" />
      <source>running the kernel for the first time</source>
      <translation>首次运行内核</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention3.toml" />
      <source>sageattention3_blackwell/ as of main d1a57a5 (SM121 whitelisted in 1b68c96)</source>
      <translation>main d1a57a5 时的 sageattention3_blackwell/（SM121 已在 1b68c96 中加入白名单）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="168" />
      <source>save the verification report</source>
      <translation>保存验证报告</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="138" />
      <source>scale {s}</source>
      <translation>缩放 {s}</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention3.toml" />
      <source>setup.py clones NVIDIA/cutlass (the newest, unpinned) into csrc/cutlass when it is missing: the build needs git and the internet</source>
      <translation>缺少 csrc/cutlass 时，setup.py 会克隆 NVIDIA/cutlass（最新版，未固定版本）：构建需要 git 和网络</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="638" />
      <source>stopped after {kernel}: {why}</source>
      <translation>在 {kernel} 之后停止：{why}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/locks.py" line="110" />
      <source>take the lock that keeps two runs of the wizard apart</source>
      <translation>获取防止向导同时运行两次的锁</translation>
    </message>
    <message>
      <location filename="../../" line="resources/apps/text-generation-webui.toml" />
      <source>text-generation-webui has no option for this kernel; the portable build runs llama.cpp, which has its own attention code.</source>
      <translation>text-generation-webui 没有针对这个内核的选项；便携版运行的是 llama.cpp，它有自己的注意力实现。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="610" />
      <source>the CPU part</source>
      <translation>CPU 部分</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="53" />
      <source>the GPUs the package's documentation lists</source>
      <translation>该包文档中列出的 GPU</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="143" />
      <source>the Kernel step lists them</source>
      <translation>“内核”步骤会列出它们</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="107" />
      <source>the Prerequisites step can do it (its Fix button)</source>
      <translation>“前置条件”步骤可以完成（点它的“修复”按钮）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="122" />
      <source>the Prerequisites step says what to do</source>
      <translation>“前置条件”步骤会说明该怎么做</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/advice.py" line="115" />
      <source>the Prerequisites step shows the commands to run</source>
      <translation>“前置条件”步骤会列出要运行的命令</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="405" />
      <source>the Python package index</source>
      <translation>Python 软件包索引</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="54" />
      <source>the Start menu</source>
      <translation>“开始”菜单</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention3.toml" />
      <source>the build compiles for the GPU that PyTorch sees first on the building machine</source>
      <translation>构建会针对构建机器上 PyTorch 看到的第一块 GPU 编译</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="54" />
      <source>the build script stopped before compiling, most often because it did not find a tool, library or package it looks for</source>
      <translation>构建脚本在编译之前停止，最常见的原因是没有找到它需要的工具、库或软件包</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="61" />
      <source>the compiler rejected the package's source, often because the source was written for other versions of PyTorch, CUDA or the compiler</source>
      <translation>编译器拒绝了软件包的源代码，常见原因是源代码是为其他版本的 PyTorch、CUDA 或编译器编写的</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="68" />
      <source>the compiler was stopped by the system (most often short of memory) or crashed on its own</source>
      <translation>编译器被系统终止（最常见的是内存不足），或自身崩溃</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="217" />
      <source>the connection was refused</source>
      <translation>连接被拒绝</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="219" />
      <source>the connection was reset</source>
      <translation>连接被重置</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/housekeeping.py" line="342" />
      <source>the current build uses it</source>
      <translation>当前的编译正在使用它</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="910" />
      <source>the default; no AI program was recognised for this Python</source>
      <translation>默认值；未识别出此 Python 所属的 AI 程序</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/platforms/shortcuts.py" line="54" />
      <source>the desktop</source>
      <translation>桌面</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="221" />
      <source>the disk holding {path} is full ({free})</source>
      <translation>{path} 所在的磁盘已满（{free}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="729" />
      <source>the download is not a readable zip ({error})</source>
      <translation>下载的文件不是可读取的 ZIP 压缩包（{error}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="81" />
      <source>the files could not be written or copied where the wheel or the installation goes</source>
      <translation>无法把文件写入或复制到 wheel 或安装所在的位置</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="249" />
      <source>the folder {folder} does not exist</source>
      <translation>文件夹 {folder} 不存在</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="777" />
      <source>the headers (Python.h and the rest of tools/include) into {include}</source>
      <translation>头文件（Python.h 以及 tools/include 中的其余文件）到 {include}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="773" />
      <source>the headers (Python.h and the rest of tools/include) into {include}, and {libs} into {folder}</source>
      <translation>头文件（Python.h 以及 tools/include 中的其余文件）到 {include}，并把 {libs} 复制到 {folder}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="88" />
      <source>the installed files do not fit the PyTorch, CUDA or Python loading them, or a library they need is not found</source>
      <translation>已安装的文件与加载它们的 PyTorch、CUDA 或 Python 不匹配，或找不到它们需要的某个库</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/families.py" line="102" />
      <source>the kernel was built without code for this GPU or does not support it, the NVIDIA driver is too old for its CUDA, or the code that compiles itself on first use found no compiler</source>
      <translation>内核构建时没有包含这块 GPU 的代码或者不支持这块 GPU，NVIDIA 驱动对它所用的 CUDA 来说太旧，或者在第一次使用时自行编译的代码找不到编译器</translation>
    </message>
    <message>
      <source>the kernel was built without code for this GPU, or does not support it</source>
      <translation type="obsolete">内核构建时没有包含这块 GPU 的代码，或者它不支持这块 GPU</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="99" />
      <source>the newest this wizard knows</source>
      <translation>这个向导知道的最新版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="173" />
      <source>the output</source>
      <translation>输出</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="723" />
      <source>the package has no {file}</source>
      <translation>包中没有 {file}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="726" />
      <source>the package holds an unsafe path: {name}</source>
      <translation>包中含有不安全的路径：{name}</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention3.toml" />
      <source>the package needs Triton at run time (sageattn3/api.py imports it) and lists einops, packaging and ninja as dependencies</source>
      <translation>该包运行时需要 Triton（sageattn3/api.py 会导入它），并将 einops、packaging 和 ninja 列为依赖</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="49" />
      <source>the package's own setting for the GPU architectures to build (for most PyTorch extensions TORCH_CUDA_ARCH_LIST)</source>
      <translation>该包自身用于指定要编译的 GPU 架构的设置（大多数 PyTorch 扩展使用 TORCH_CUDA_ARCH_LIST）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="51" />
      <source>the package's own switch that skips the download and builds from source, if its setup.py has one</source>
      <translation>该包自身提供的跳过下载、直接从源码编译的开关（如果它的 setup.py 有的话）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="236" />
      <source>the path {path} is too long ({length} characters)</source>
      <translation>路径 {path} 太长（{length} 个字符）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="234" />
      <source>the path {path} is too long ({length} characters; the limit here is {limit})</source>
      <translation>路径 {path} 太长（{length} 个字符；这里的上限是 {limit}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="215" />
      <source>the proxy server could not be reached</source>
      <translation>无法连接代理服务器</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention.toml" />
      <source>the release: sm_120 compiles as plain sm_120 (main: sm_120a); with return_lse=True and grouped-query attention the log-sum-exp correction reads the head count from the wrong dimension (fixed on main)</source>
      <translation>正式发布版：sm_120 编译为普通 sm_120（main 为 sm_120a）；在 return_lse=True 且使用分组查询注意力时，log-sum-exp 修正从错误的维度读取头数（main 已修复）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/transfer.py" line="566" />
      <source>the server closed it early</source>
      <translation>服务器提前关闭了连接</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="213" />
      <source>the server's name could not be looked up</source>
      <translation>无法解析服务器的名称</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="211" />
      <source>the submodule folder {path} is {problem}</source>
      <translation>子模块文件夹 {path} {problem}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="206" />
      <source>the submodule {path} is at {commit}, not at the commit the source pins</source>
      <translation>子模块 {path} 处于 {commit}，而不是源码固定的提交</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="209" />
      <source>the submodule {path} is in a conflicted state</source>
      <translation>子模块 {path} 处于冲突状态</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="204" />
      <source>the submodule {path} is not checked out</source>
      <translation>子模块 {path} 没有检出</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="246" />
      <source>the submodule's repository</source>
      <translation>子模块的仓库</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/flash_attn.toml" />
      <source>the version Windows build guides call stable</source>
      <translation>Windows 编译指南中称为稳定的版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="325" />
      <source>the whole verification</source>
      <translation>整个验证</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="249" />
      <source>the {name}'s GPU part</source>
      <translation>{name}的 GPU 部分</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="454" />
      <source>this machine has {total}</source>
      <translation>这台机器有 {total} 个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="48" />
      <source>this package</source>
      <translation>这个包</translation>
    </message>
    <message>
      <location filename="../../" line="resources/recipes/sageattention.toml" />
      <source>thu-ml's setup.py is written for Linux compilers (GCC flags such as -fopenmp); Windows users usually install woct0rdho's prebuilt wheels, which the wizard offers first when one matches. SageAttention's Triton kernels need the triton-windows package (Prerequisites).</source>
      <translation>thu-ml 的 setup.py 是为 Linux 编译器编写的（使用 -fopenmp 等 GCC 选项）；Windows 用户通常安装 woct0rdho 的预编译 wheel，若有匹配的，向导会优先提供。SageAttention 的 Triton 内核需要 triton-windows 包（见前置条件）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="148" />
      <source>triton-windows is missing; SageAttention needs version {want} for PyTorch {torch}.</source>
      <translation>缺少 triton-windows；对于 PyTorch {torch}，SageAttention 需要 {want} 版本。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="162" />
      <source>triton-windows {have} matches PyTorch {torch}.</source>
      <translation>triton-windows {have} 与 PyTorch {torch} 匹配。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="301" />
      <source>unknown</source>
      <translation>未知</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="236" />
      <source>unknown NVIDIA GPU</source>
      <translation>未知的 NVIDIA GPU</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="152" />
      <source>version unknown</source>
      <translation>版本未知</translation>
    </message>
    <message>
      <location filename="../../" line="resources/speed/workloads.toml" />
      <source>video</source>
      <translation>视频</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="63" />
      <source>vswhere did not give a usable answer: {error}</source>
      <translation>vswhere 没有给出可用的回答：{error}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="634" />
      <source>was stopped: {kernel} did not finish within {seconds} seconds</source>
      <translation>被停止：{kernel} 没有在 {seconds} 秒内完成</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="909" />
      <source>what {app} runs</source>
      <translation>{app} 的用途</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="345" />
      <source>write the report bundle</source>
      <translation>写入报告包</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="208" />
      <source>yes</source>
      <translation>是</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="224" />
      <source>you have no permission to write to {path}</source>
      <translation>你没有写入 {path} 的权限</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="904" />
      <source>your choice</source>
      <translation>你的选择</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="98" />
      <source>your driver supports CUDA up to {cuda}</source>
      <translation>你的驱动最高支持 CUDA {cuda}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="658" />
      <source>your last build of it on this computer ({when}) took {took} with {jobs} parallel jobs</source>
      <translation>你上次在这台电脑上编译它（{when}）用了 {took}，使用 {jobs} 个并行任务</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="70" />
      <source>your {count} selected GPUs ({archs})</source>
      <translation>你选择的 {count} 个 GPU（{archs}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="239" />
      <source>your {name}</source>
      <translation>你的 {name}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="67" />
      <source>your {name} ({arch}, cc {cc})</source>
      <translation>你的 {name}（{arch}，cc {cc}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/model.py" line="161" />
      <source>{arch} (cc {cc}) or newer</source>
      <translation>{arch}（cc {cc}）或更新的 GPU</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="344" />
      <source>{cause}.</source>
      <translation>{cause}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/kernels.py" line="43" />
      <source>{check}: {summary}</source>
      <translation>{check}：{summary}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="422" />
      <source>{count} NVIDIA GPU found.</source>
      <translation>找到 {count} 个 NVIDIA GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/hardware.py" line="423" />
      <source>{count} NVIDIA GPUs found.</source>
      <translation>找到 {count} 个 NVIDIA GPU。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="613" />
      <source>{count} arch × {units} units</source>
      <translation>{count} 个架构 × {units} 个编译单元</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="614" />
      <source>{count} archs × {units} units</source>
      <translation>{count} 个架构 × {units} 个编译单元</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="611" />
      <source>{count} extensions, {units} units</source>
      <translation>{count} 个扩展，{units} 个编译单元</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="618" />
      <source>{count} job</source>
      <translation>{count} 个任务</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="619" />
      <source>{count} jobs</source>
      <translation>{count} 个任务</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/parallelism.py" line="74" />
      <source>{count} nvcc thread</source>
      <translation>{count} 个 nvcc 线程</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/parallelism.py" line="75" />
      <source>{count} nvcc threads</source>
      <translation>{count} 个 nvcc 线程</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="454" />
      <source>{count} of this machine's {total} are selected</source>
      <translation>这台机器的 {total} 个中选择了 {count} 个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/parallelism.py" line="67" />
      <source>{count} parallel compile job</source>
      <translation>{count} 个并行编译任务</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/parallelism.py" line="68" />
      <source>{count} parallel compile jobs</source>
      <translation>{count} 个并行编译任务</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="71" />
      <source>{disk} free for builds (in {folder}) and {ram} of memory: enough to compile one file at a time for the biggest kernels.</source>
      <translation>{disk} 可用于编译（在 {folder} 中），内存 {ram}：对最大的内核，足够一次编译一个文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="73" />
      <source>{disk} free for builds (in {folder}) and {ram} of memory: enough to compile {jobs} files at a time for the biggest kernels.</source>
      <translation>{disk} 可用于编译（在 {folder} 中），内存 {ram}：对最大的内核，足够同时编译 {jobs} 个文件。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="61" />
      <source>{failed} of {ran} checks failed: the kernel produced invalid numbers (NaN or infinity) or left part of its result unwritten.</source>
      <translation>{ran} 项检查中有 {failed} 项失败：内核产生了无效数值（NaN 或无穷大），或者结果有一部分没有写入。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="67" />
      <source>{failed} of {ran} checks failed: the kernel stopped with an error.</source>
      <translation>{ran} 项检查中有 {failed} 项失败：内核因出错而停止。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="64" />
      <source>{failed} of {ran} checks failed: the kernel's backward pass (needed for training) does not work.</source>
      <translation>{ran} 项检查中有 {failed} 项失败：内核的反向计算（训练时需要）不能正常工作。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="69" />
      <source>{failed} of {ran} checks failed: the kernel's results are further from the exact answer than PyTorch's own are allowed to be.</source>
      <translation>{ran} 项检查中有 {failed} 项失败：内核结果与精确答案的差距超出了 PyTorch 自身结果所允许的范围。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="849" />
      <source>{file} could not be written: {error}.</source>
      <translation>无法写入 {file}：{error}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="241" />
      <source>{file} is a file, where a folder of {path} should be</source>
      <translation>{file} 是一个文件，但这里应该是 {path} 的一个文件夹</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/target.py" line="226" />
      <source>{first} and {second}</source>
      <translation>{first}和{second}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/kernels.py" line="34" />
      <source>{fix}: {where}.</source>
      <translation>{fix}：{where}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="58" />
      <source>{free} free on the build drive: enough for small kernels, tight for FlashAttention (~{recommended} GB recommended).</source>
      <translation>编译所在的驱动器有 {free} 可用：对小内核足够，对 FlashAttention 来说偏紧（建议约 {recommended} GB）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="169" />
      <source>{gb} GB free</source>
      <translation>剩余 {gb} GB</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="391" />
      <source>{gpu} is {arch} (cc {cc}); {kernel} needs {gpus}.</source>
      <translation>{gpu} 是 {arch} 架构（cc {cc}）；{kernel} 需要 {gpus}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="234" />
      <source>{gpu} — {why}</source>
      <translation>{gpu} — {why}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="284" />
      <source>{gpu}: {arch}, compute capability {cc}</source>
      <translation>{gpu}：{arch}，计算能力 {cc}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="129" />
      <source>{host} answered {reason}{after}</source>
      <translation>{host} 的回应是 {reason}{after}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="189" />
      <source>{host} has no source archive of {what} at that version.</source>
      <translation>{host} 上没有 {what} 这个版本的源码压缩包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="106" />
      <source>{host} requires a login or denies access from this network.</source>
      <translation>{host} 需要登录，或者拒绝来自这个网络的访问。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="172" />
      <source>{hours} h</source>
      <translation>{hours} 小时</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="171" />
      <source>{hours} h {minutes} min</source>
      <translation>{hours} 小时 {minutes} 分钟</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="237" />
      <source>{inf} infinite</source>
      <translation>{inf} 个无穷大</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/model.py" line="565" />
      <source>{items} and {last}</source>
      <translation>{items} 和 {last}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/model.py" line="558" />
      <source>{items} or {last}</source>
      <translation>{items} 或 {last}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="342" />
      <source>{jobs} × {threads} (fixed by this version): limited by {limit} ({cores} cores, {ram_gb:.1f} GB RAM available, ~{gb:g} GB per compile thread)</source>
      <translation>{jobs} × {threads}（由该版本固定）：受{limit}限制（{cores} 个核心，可用内存 {ram_gb:.1f} GB，每个编译线程约 {gb:g} GB）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/parallelism.py" line="56" />
      <source>{jobs} × {threads}: limited by {limit} ({cores} cores, {ram_gb:.1f} GB RAM available, ~{gb:g} GB per compile thread)</source>
      <translation>{jobs} × {threads}：受{limit}限制（{cores} 个核心，可用内存 {ram_gb:.1f} GB，每个编译线程约 {gb:g} GB）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="171" />
      <source>{kernels} may not work any more. Re-verify now to see what still works.</source>
      <translation>{kernels} 可能已无法使用。请立即重新验证，查看哪些仍然可用。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="173" />
      <source>{kernels} may not work any more: {what} changed ({before} → {after}). Re-verify now to see what still works.</source>
      <translation>{kernels} 可能已无法使用：{what} 已更改（{before} → {after}）。请立即重新验证，查看哪些仍然可用。</translation>
    </message>
    <message>
      <source>{kernels} may not work any more: {why}. Re-verify now to see what still works.</source>
      <translation type="obsolete">{kernels} 可能已无法使用：{why}。请立即重新验证，查看哪些仍然可用。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="51" />
      <source>{kernel} in {python}</source>
      <translation>{python} 中的 {kernel}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="111" />
      <source>{kernel} is the first kernel of the catalog.</source>
      <translation>{kernel} 是目录中的第一个内核。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="93" />
      <source>{kernel} is the most specialised library that fits {gpus}.</source>
      <translation>{kernel} 是适合{gpus}的最专门的库。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="96" />
      <source>{kernel} is the most specialised library that fits {gpus}; 1 other library fits too.</source>
      <translation>{kernel} 是适合{gpus}的最专门的库；另有 1 个库也适合。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="99" />
      <source>{kernel} is the most specialised library that fits {gpus}; {others} other libraries fit too.</source>
      <translation>{kernel} 是适合{gpus}的最专门的库；另有 {others} 个库也适合。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="573" />
      <source>{kernel} needs CUDA {need} or newer{why}; PyTorch here is built for CUDA {torch_cuda}, and the toolkit must have the same major version as PyTorch's.</source>
      <translation>{kernel} 需要 CUDA {need} 或更新版本{why}；这里的 PyTorch 是为 CUDA {torch_cuda} 编译的，而工具包的主版本号必须与 PyTorch 的相同。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="563" />
      <source>{kernel} needs CUDA {need} or newer{why}; the selected toolkit is {toolkit}.</source>
      <translation>{kernel} 需要 CUDA {need} 或更新版本{why}；所选的工具包是 {toolkit}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/changes.py" line="148" />
      <source>{kernel} no longer imports after the PyTorch update: {error}</source>
      <translation>PyTorch 更新后 {kernel} 已无法导入：{error}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/session.py" line="623" />
      <source>{kernel} {version} does not fit this computer:
{reasons}</source>
      <translation>{kernel} {version} 不适合这台电脑：
{reasons}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="105" />
      <source>{kernel}: {sentence}</source>
      <translation>{kernel}：{sentence}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="243" />
      <source>{label} contains {values} value(s){share}, the first{where}: the kernel produced invalid numbers or left part of its output unwritten.</source>
      <translation>{label} 含有 {values}{share}，第一个{where}：内核产生了无效数值，或者输出有一部分没有写入。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="261" />
      <source>{label} differs from the {reference} reference by up to {err}{where}, more than allowed ({factor} x PyTorch's own {dtype} error {own} + floor {floor} = {tolerance}); {percent}% of the elements are off by more than that.</source>
      <translation>{label} 与 {reference} 参考结果的差距最大为 {err}{where}，超出了允许范围（{factor} × PyTorch 自身的 {dtype} 误差 {own} + 下限 {floor} = {tolerance}）；{percent}% 的元素偏差超过这个值。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="254" />
      <source>{label} differs from the {reference} reference by up to {err}{where}; {percent}% of the elements are outside upstream's tolerance (abs {abs_tol} or rel {rel_tol}).</source>
      <translation>{label} 与 {reference} 参考结果的差距最大为 {err}{where}；{percent}% 的元素超出了上游的容差（绝对 {abs_tol} 或相对 {rel_tol}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/extract.py" line="32" />
      <source>{label} is not a .tar.gz or .zip archive.</source>
      <translation>{label} 不是 .tar.gz 或 .zip 压缩包。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="249" />
      <source>{label}: cosine difference {diff} exceeds upstream's limit {limit}.</source>
      <translation>{label}：余弦差 {diff} 超出了上游的上限 {limit}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="194" />
      <source>{label}: largest error {error}, allowed {limit}</source>
      <translation>{label}：最大误差 {error}，允许 {limit}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="196" />
      <source>{label}: largest error {error}, more than the {limit} allowed</source>
      <translation>{label}：最大误差 {error}，超过允许的 {limit}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="190" />
      <source>{label}: not measured</source>
      <translation>{label}：没有测量</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="183" />
      <source>{label}: the kernel returned nothing</source>
      <translation>{label}：内核没有返回任何结果</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="228" />
      <source>{label}: the kernel returned nothing for it.</source>
      <translation>{label}：内核没有返回它。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="185" />
      <source>{label}: wrong shape</source>
      <translation>{label}：形状错误</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="230" />
      <source>{label}: wrong shape ({detail}).</source>
      <translation>{label}：形状错误（{detail}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="443" />
      <source>{label}: {description}</source>
      <translation>{label}：{description}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="187" />
      <source>{label}: {nan} NaN and {inf} infinite values</source>
      <translation>{label}：{nan} 个 NaN 值和 {inf} 个无穷值</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="198" />
      <source>{label}: {value}</source>
      <translation>{label}：{value}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compat.py" line="44" />
      <source>{lowest} and {highest}</source>
      <translation>{lowest}，且{highest}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="119" />
      <source>{low}–{high} cached tokens</source>
      <translation>{low}–{high} 个缓存词元</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="170" />
      <source>{mb} MB free</source>
      <translation>剩余 {mb} MB</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="719" />
      <source>{minutes:.0f} min</source>
      <translation>{minutes:.0f} 分钟</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/recommend.py" line="169" />
      <source>{minutes} min</source>
      <translation>{minutes} 分钟</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="421" />
      <source>{ms} ms</source>
      <translation>{ms} 毫秒</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="420" />
      <source>{ms} ms, {rate}</source>
      <translation>{ms} 毫秒，{rate}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="224" />
      <source>{names} is set: the build uses it instead of the Visual Studio compiler (cl.exe) the wizard chose.</source>
      <translation>设置了 {names}：编译会使用它，而不是向导选择的 Visual Studio 编译器（cl.exe）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="212" />
      <source>{name} (gradient of {of})</source>
      <translation>{name}（{of} 的梯度）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="434" />
      <source>{name} cannot be built natively on {system} for {target}: {reason}.</source>
      <translation>{name} 无法在 {system} 上直接为 {target} 编译：{reason}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/environment.py" line="292" />
      <source>{name} could not be run as a program.</source>
      <translation>{name} 无法作为程序运行。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="158" />
      <source>{name} has no tag or commit '{ref}' at {url}.</source>
      <translation>{url} 上的 {name} 没有标签或提交“{ref}”。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="86" />
      <source>{name} is installed, with the x64 C++ compiler (MSVC {version}).</source>
      <translation>已安装 {name}，带有 x64 C++ 编译器（MSVC {version}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="671" />
      <source>{name} needs NCCL {wanted} or newer in the target Python; none was found there.</source>
      <translation>{name} 需要目标 Python 中有 NCCL {wanted} 或更新版本，但那里没有找到。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="676" />
      <source>{name} needs NCCL {wanted} or newer; PyTorch's NCCL here is {have}.</source>
      <translation>{name} 需要 NCCL {wanted} 或更新版本；这里 PyTorch 自带的 NCCL 是 {have}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="679" />
      <source>{name} needs NCCL {wanted} or newer; the {package} package's NCCL here is {have}.</source>
      <translation>{name} 需要 NCCL {wanted} 或更新版本；这里 {package} 包中的 NCCL 是 {have}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="692" />
      <source>{name} needs NVSHMEM in the target Python; it is not installed there.</source>
      <translation>{name} 需要目标 Python 中有 NVSHMEM，但那里没有安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="494" />
      <source>{name} needs PyTorch {need} or newer; this Python has PyTorch {have}.</source>
      <translation>{name} 需要 PyTorch {need} 或更新版本；这个 Python 中的是 PyTorch {have}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="468" />
      <source>{name} needs the GPUs connected with NVLink; the selected GPUs are not.</source>
      <translation>{name} 需要通过 NVLink 连接的 GPU；所选的 GPU 没有通过 NVLink 连接。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="252" />
      <source>{name} needs {path} ({where}). A GitHub 'Download ZIP' or source archive does not contain submodules.</source>
      <translation>{name} 需要 {path}（{where}）。GitHub 的“Download ZIP”或源码压缩包不包含子模块。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="458" />
      <source>{name} needs {wanted} GPUs connected with NVLink; {have}.</source>
      <translation>{name} 需要 {wanted} 个通过 NVLink 连接的 GPU；{have}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="460" />
      <source>{name} needs {wanted} GPUs; {have}.</source>
      <translation>{name} 需要 {wanted} 个 GPU；{have}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="352" />
      <source>{name} runs on {systems} only; this computer runs {system}.</source>
      <translation>{name} 只能在 {systems} 上运行；这台电脑运行的是 {system}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/statefile.py" line="73" />
      <source>{name} was damaged ({problem}).</source>
      <translation>{name} 已损坏（{problem}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="417" />
      <source>{name} {version} builds code only for {targets}, which {gpu} ({arch}, cc {cc}) cannot run.</source>
      <translation>{name} {version} 只编译 {targets} 的代码，{gpu}（{arch}，cc {cc}）无法运行这些代码。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="600" />
      <source>{name} {version} needs Python {need} or newer; the target Python is {have}.</source>
      <translation>{name} {version} 需要 Python {need} 或更新版本；目标 Python 是 {have}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="608" />
      <source>{name} {version} supports Python up to {most}; the target Python is {have}.</source>
      <translation>{name} {version} 最高支持 Python {most}；目标 Python 是 {have}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="175" />
      <source>{name}, the gradient of {of}</source>
      <translation>{name}，{of} 的梯度</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="490" />
      <source>{name}: at this size, issuing one call takes the CPU {host} ms, about as long as the GPU needs ({kernel} ms): the Python around the kernel sets the pace here, not the kernel.</source>
      <translation>{name}：在此尺寸下，CPU 发出一次调用需要 {host} ms，与 GPU 所需时间（{kernel} ms）相当：这里决定速度的是内核周围的 Python，而不是内核本身。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="472" />
      <source>{name}: could not be timed ({why}).</source>
      <translation>{name}：无法计时（{why}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="151" />
      <source>{name}: not found on PATH</source>
      <translation>{name}：在 PATH 中找不到</translation>
    </message>
    <message>
      <source>{name}: {kernel_ms} ms — {default}; {math}.</source>
      <translation type="obsolete">{name}：{kernel_ms} 毫秒 — {default}；{math}。</translation>
    </message>
    <message>
      <source>{name}: {kernel_ms} ms — {versus}.</source>
      <translation type="obsolete">{name}：{kernel_ms} 毫秒 — {versus}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="482" />
      <source>{name}: {kernel} — {default}.</source>
      <translation>{name}：{kernel} — {default}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="486" />
      <source>{name}: {kernel} — {default}; {math}.</source>
      <translation>{name}：{kernel} — {default}；{math}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="476" />
      <source>{name}: {kernel} — {versus}.</source>
      <translation>{name}：{kernel} — {versus}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="154" />
      <source>{name}: {path} (from {variable}: the build uses it) ({version})</source>
      <translation>{name}：{path}（来自 {variable}：编译使用它）（{version}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="156" />
      <source>{name}: {path} ({version})</source>
      <translation>{name}：{path}（{version}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="220" />
      <source>{name}: {program}</source>
      <translation>{name}：{program}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="149" />
      <source>{name}: {variable} names no program</source>
      <translation>{name}：{variable} 没有指向任何程序</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="235" />
      <source>{nan} NaN</source>
      <translation>{nan} 个 NaN</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="233" />
      <source>{nan} NaN and {inf} infinite</source>
      <translation>{nan} 个 NaN 和 {inf} 个无穷大</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="118" />
      <source>{n} cached tokens</source>
      <translation>{n} 个缓存词元</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="132" />
      <source>{n} heads</source>
      <translation>{n} 个头</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/install/records.py" line="225" />
      <source>{n} install record(s) were rebuilt from the backups folder ({folder}).</source>
      <translation>已根据备份文件夹（{folder}）重建了 {n} 条安装记录。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="110" />
      <source>{n} sequences of {low}–{high} tokens</source>
      <translation>{n} 个序列，每个 {low}–{high} 个词元</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="126" />
      <source>{n} tokens</source>
      <translation>{n} 个词元</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="676" />
      <source>{old} → {new} nvcc threads</source>
      <translation>nvcc 线程 {old} → {new} 个</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/run.py" line="673" />
      <source>{old} → {new} parallel compile jobs</source>
      <translation>并行编译任务 {old} → {new} 个</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1916" />
      <source>{package} does not support this platform: {platform}</source>
      <translation>{package} 不支持这个平台：{platform}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1450" />
      <source>{package} is installed, but its GPU code was never compiled: its build did not find the CUDA toolkit or a CUDA build of PyTorch (or no GPU was visible while it built), so it built only the CPU part, and the GPU function refuses to run.</source>
      <translation>{package} 已安装，但其 GPU 代码从未被编译：构建时没有找到 CUDA 工具包或 CUDA 版 PyTorch（或构建时看不到 GPU），因此只构建了 CPU 部分，GPU 函数拒绝运行。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1916" />
      <source>{package} is written for other platforms than this one ({platform}): its code or its build script refuses or cannot compile here.</source>
      <translation>{package} 是为其他平台编写的，不是当前平台（{platform}）：它的代码或编译脚本在这里拒绝编译或无法编译。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/context.py" line="122" />
      <source>{package} needs {gpus}</source>
      <translation>{package} 需要 {gpus}</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1450" />
      <source>{package} was built without its CUDA code</source>
      <translation>{package} 构建时没有包含其 CUDA 代码</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="157" />
      <source>{package} {have} does not match PyTorch {torch}, which works with Triton {want}.</source>
      <translation>{package} {have} 与 PyTorch {torch} 不匹配，该 PyTorch 需要 Triton {want}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/triton.py" line="129" />
      <source>{package} {have} is installed; which Triton PyTorch {torch} needs is not known to the wizard.</source>
      <translation>已安装 {package} {have}；向导不知道 PyTorch {torch} 需要哪个版本的 Triton。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="526" />
      <source>{part} belongs to PyTorch's own libraries, which "import torch" loads. The kernel was imported before PyTorch, or it was built for another PyTorch version.</source>
      <translation>{part} 属于 PyTorch 自身的库，由 "import torch" 加载。内核在 PyTorch 之前被导入，或者它是为另一个 PyTorch 版本构建的。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="258" />
      <source>{path} could not be used</source>
      <translation>无法使用 {path}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="257" />
      <source>{path} could not be {purpose}</source>
      <translation>{path} 无法{purpose}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="250" />
      <source>{path} does not exist</source>
      <translation>{path} 不存在</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="243" />
      <source>{path} is a file, where a folder should be</source>
      <translation>{path} 是一个文件，但这里应该是文件夹</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="245" />
      <source>{path} is a folder, where a file should be</source>
      <translation>{path} 是一个文件夹，但这里应该是文件</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="252" />
      <source>{path} is in use by another program</source>
      <translation>{path} 正被另一个程序使用</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/git.py" line="202" />
      <source>{path} is not a submodule of this source</source>
      <translation>{path} 不是这份源码的子模块</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/oserrors.py" line="226" />
      <source>{path} is on a read-only drive</source>
      <translation>{path} 位于只读驱动器上</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="161" />
      <source>{percent} % of the allowed error</source>
      <translation>允许误差的 {percent}%</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/fixes.py" line="155" />
      <source>{program} could not be started: {why}</source>
      <translation>无法启动 {program}：{why}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/runner.py" line="604" />
      <source>{python} could not be started to run the verification ({why}).</source>
      <translation>无法启动 {python} 来运行验证（{why}）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="113" />
      <source>{q} queries, {k} keys</source>
      <translation>{q} 个查询，{k} 个键</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="130" />
      <source>{q} query heads sharing {k} key/value heads</source>
      <translation>{q} 个查询头共享 {k} 个键/值头</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/resources.py" line="63" />
      <source>{ram} of memory: big kernels build one file at a time and may still run out of memory.</source>
      <translation>内存 {ram}：大的内核每次只编译一个文件，仍然可能内存不足。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="172" />
      <source>{reason} (and {more} more reason)</source>
      <translation>{reason}（另有 {more} 个原因）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="173" />
      <source>{reason} (and {more} more reasons)</source>
      <translation>{reason}（另有 {more} 个原因）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/assess.py" line="624" />
      <source>{reason} Only the {name}'s CPU part is built here.</source>
      <translation>{reason} 这里只编译 {name} 的 CPU 部分。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="247" />
      <source>{repo} at commit {commit}</source>
      <translation>{repo} 的提交 {commit}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/local.py" line="248" />
      <source>{repo} at the commit the source pins</source>
      <translation>{repo} 中源码固定的提交</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="718" />
      <source>{seconds:.0f} s</source>
      <translation>{seconds:.0f} 秒</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="492" />
      <source>{sentence} (Measured at this one shape only, not yet at {workload}.)</source>
      <translation>{sentence}（仅在这一个尺寸上测过，尚未在{workload}上测量。）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="497" />
      <source>{sentence} Elsewhere: {others}.</source>
      <translation>{sentence} 其他用途：{others}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="501" />
      <source>{sentence} Faster on {family} GPUs: {better} (measured).</source>
      <translation>{sentence} 在 {family} GPU 上更快的是：{better}（实测）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/prebuilt.py" line="90" />
      <source>{size} of the wheel are kept in {folder}: start the same download again and it continues from there.</source>
      <translation>这个 wheel 已下载的 {size} 保存在 {folder}：再次开始同样的下载，就会从那里继续。</translation>
    </message>
    <message>
      <source>{symbol} is a symbol of PyTorch's own library libtorch_python, which "import torch" loads. The kernel was imported before PyTorch, or it was built for another PyTorch version that provides that symbol.</source>
      <translation type="obsolete">{symbol} 是 PyTorch 自身的库 libtorch_python 中的符号，由 “import torch” 加载。内核在 PyTorch 之前被导入，或者它是为提供该符号的另一个 PyTorch 版本构建的。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="162" />
      <source>{times}× the allowed error</source>
      <translation>允许误差的 {times} 倍</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="34" />
      <source>{toolset} (default)</source>
      <translation>{toolset}（默认）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/machine/msvc.py" line="366" />
      <source>{toolset} from {instance} will be used.</source>
      <translation>将使用 {instance} 中的 {toolset}。</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1946" />
      <source>{tool} has no build for this platform</source>
      <translation>{tool} 没有适用于此平台的版本</translation>
    </message>
    <message>
      <location filename="../../resources/diagnosis/failures.toml" line="1728" />
      <source>{tool} is not the version this code needs (it has no {symbol})</source>
      <translation>{tool} 不是这段代码需要的版本（它没有 {symbol}）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="99" />
      <source>{url} does not exist (any more).</source>
      <translation>{url} 不存在（或已不存在）。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/sources/archive.py" line="191" />
      <source>{url} does not exist: the tag or commit is not in the repository.</source>
      <translation>{url} 不存在：仓库中没有这个标签或提交。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/base/download/wording.py" line="35" />
      <source>{url} is not an https:// address, so the file could be altered on the way.</source>
      <translation>{url} 不是 https:// 地址，文件在传输途中可能被篡改。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/compiler.py" line="125" />
      <source>{variable}: {program} was not found.</source>
      <translation>{variable}：找不到 {program}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/diagnose/facts.py" line="149" />
      <source>{version} or newer</source>
      <translation>{version} 或更新版本</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/history.py" line="265" />
      <source>{what}: {before} → {after}</source>
      <translation>{what}：{before} → {after}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/build/plan.py" line="616" />
      <source>{what}: ~{work:,.0f} CPU-core-seconds on {parallel:.0f} compile threads ({jobs} × {threads}, {cores} cores, {ram_gb:.0f} GB RAM)</source>
      <translation>{what}：约 {work:,.0f} CPU 核心·秒，用 {parallel:.0f} 个编译线程（{jobs} × {threads}，{cores} 个核心，内存 {ram_gb:.0f} GB）</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/kernels.py" line="42" />
      <source>{where}.</source>
      <translation>{where}。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="360" />
      <source>{words}: {reason}</source>
      <translation>{words}：{reason}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/catalog/worth.py" line="498" />
      <source>{workload} {x}× PyTorch's fastest</source>
      <translation>{workload}为 PyTorch 最快方法的 {x} 倍</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="396" />
      <source>{x}× as fast as PyTorch's {backend}</source>
      <translation>速度是 PyTorch 的{backend}的 {x} 倍</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="410" />
      <source>{x}× as fast as plain PyTorch ({reference}) doing the same work</source>
      <translation>速度是完成相同工作的纯 PyTorch（{reference}）的 {x} 倍</translation>
    </message>
    <message>
      <source>{x}× as fast as plain PyTorch ({reference}) moving the same data</source>
      <translation type="obsolete">是搬运相同数据的纯 PyTorch 做法（{reference}）的 {x} 倍速度</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="397" />
      <source>{x}× slower than PyTorch's {backend}</source>
      <translation>耗时是 PyTorch 的{backend}的 {x} 倍</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="412" />
      <source>{x}× slower than plain PyTorch ({reference}) doing the same work</source>
      <translation>比完成相同工作的纯 PyTorch（{reference}）慢 {x} 倍</translation>
    </message>
    <message>
      <source>{x}× slower than plain PyTorch ({reference}) moving the same data</source>
      <translation type="obsolete">比搬运相同数据的纯 PyTorch 做法（{reference}）慢 {x} 倍</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/prereqs/cuda.py" line="286" />
      <source>• {finding}</source>
      <translation>• {finding}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/view.py" line="128" />
      <source>• {line}</source>
      <translation>• {line}</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="163" />
      <source>✔ PASS — all {n} installed kernels work.</source>
      <translation>✔ 通过 — 全部 {n} 个已安装的内核工作正常。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="162" />
      <source>✔ PASS — the installed kernel works.</source>
      <translation>✔ 通过 — 已安装的内核工作正常。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="303" />
      <source>✔ PASS — the kernel works, and it is installed.</source>
      <translation>✔ 通过 — 内核工作正常，已安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="299" />
      <source>✔ PASS — the kernel works.</source>
      <translation>✔ 通过 — 内核工作正常。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="300" />
      <source>✖ FAIL — the kernel computes wrong results. It was not installed.</source>
      <translation>✖ 失败 — 内核计算结果错误，没有安装。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/flow/reverify.py" line="160" />
      <source>✖ Something no longer works — see below.</source>
      <translation>✖ 有内核不再正常工作 — 见下文。</translation>
    </message>
    <message>
      <location filename="../../kernel_wizard/verify/wording.py" line="301" />
      <source>✖ The kernel could not be checked, so it was not installed.</source>
      <translation>✖ 无法检查这个内核，因此没有安装。</translation>
    </message>
  </context>
  <context>
    <name>ksw</name>
    <message>
      <location filename="../../app/pages/build.py" line="482" />
      <source>%v / %m</source>
      <translation>%v / %m</translation>
    </message>
    <message>
      <source>%v / %m KiB</source>
      <translation type="obsolete">%v / %m KiB</translation>
    </message>
    <message>
      <source>%v / %m units</source>
      <translation type="obsolete">%v / %m 个编译单元</translation>
    </message>
    <message>
      <source>&lt;p&gt;This wizard installs a fast attention kernel library (FlashAttention&amp;nbsp;2, FlashMLA, or the
small &lt;i&gt;probe&lt;/i&gt; kernel) into a Python environment of your choice, and proves that it computes
correctly on your GPU.&lt;/p&gt;
&lt;p&gt;&lt;b&gt;What will happen&lt;/b&gt;&lt;/p&gt;
&lt;ol&gt;
&lt;li&gt;&lt;b&gt;Hardware&lt;/b&gt; &amp;mdash; your NVIDIA GPUs, driver, memory and disk are detected, and you choose
the Python environment to install into.&lt;/li&gt;
&lt;li&gt;&lt;b&gt;Prerequisites&lt;/b&gt; &amp;mdash; the compiler, CUDA toolkit and other requirements are checked;
where something is missing the wizard offers to fix it.&lt;/li&gt;
&lt;li&gt;&lt;b&gt;Kernel&lt;/b&gt; &amp;mdash; you pick a kernel and a version that fit your machine.&lt;/li&gt;
&lt;li&gt;&lt;b&gt;Build&lt;/b&gt; &amp;mdash; the kernel is compiled in the background; you can watch the log.&lt;/li&gt;
&lt;li&gt;&lt;b&gt;Verify&lt;/b&gt; &amp;mdash; the result is tested against PyTorch before it is installed.&lt;/li&gt;
&lt;/ol&gt;
&lt;p&gt;&lt;b&gt;What you need&lt;/b&gt;: an NVIDIA GPU with a current driver (without one you can still try the
CPU probe kernel), a Python environment (PyTorch can be installed for you), an internet
connection or a local copy of the kernel's source, and several GB of free disk space.
Nothing is changed on your computer until you confirm it.&lt;/p&gt;
</source>
      <translation type="obsolete">&lt;p&gt;本向导把一个高速注意力内核库（FlashAttention&amp;nbsp;2、FlashMLA，或小型的&lt;i&gt;探测&lt;/i&gt;内核）安装到你选择的 Python 环境中，并证明它在你的显卡上计算正确。&lt;/p&gt;
&lt;p&gt;&lt;b&gt;接下来会发生什么&lt;/b&gt;&lt;/p&gt;
&lt;ol&gt;
&lt;li&gt;&lt;b&gt;硬件&lt;/b&gt; &amp;mdash; 检测你的 NVIDIA 显卡、驱动、内存和磁盘，并选择要安装到的 Python 环境。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;前置条件&lt;/b&gt; &amp;mdash; 检查编译器、CUDA 工具包和其他要求；缺少的东西，向导会提供修复。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;内核&lt;/b&gt; &amp;mdash; 选择适合你电脑的内核和版本。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;编译&lt;/b&gt; &amp;mdash; 在后台编译内核；你可以查看日志。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;验证&lt;/b&gt; &amp;mdash; 在安装之前，用 PyTorch 测试编译结果。&lt;/li&gt;
&lt;/ol&gt;
&lt;p&gt;&lt;b&gt;你需要&lt;/b&gt;：一块装有最新驱动的 NVIDIA 显卡（没有显卡也可以试用 CPU 版探测内核）、一个 Python 环境（可以帮你安装 PyTorch）、网络连接或内核源码的本地副本，以及几 GB 的可用磁盘空间。在你确认之前，不会改动你电脑上的任何东西。&lt;/p&gt;
</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="28" />
      <source>&lt;p&gt;This wizard installs a fast attention kernel library (FlashAttention&amp;nbsp;2, FlashMLA, or the
small &lt;i&gt;probe&lt;/i&gt; kernel) into a Python environment of your choice, and proves that it computes
correctly on your GPU.&lt;/p&gt;
&lt;p&gt;&lt;b&gt;What will happen&lt;/b&gt;&lt;/p&gt;
&lt;ol&gt;
&lt;li&gt;&lt;b&gt;Hardware&lt;/b&gt; &amp;mdash; your NVIDIA GPUs, driver, memory and disk are detected, and you choose
the Python environment to install into.&lt;/li&gt;
&lt;li&gt;&lt;b&gt;Prerequisites&lt;/b&gt; &amp;mdash; the compiler, CUDA toolkit and other requirements are checked;
where something is missing the wizard offers to fix it.&lt;/li&gt;
&lt;li&gt;&lt;b&gt;Kernel&lt;/b&gt; &amp;mdash; you pick a kernel and a version that fit your machine.&lt;/li&gt;
&lt;li&gt;&lt;b&gt;Build&lt;/b&gt; &amp;mdash; the kernel is compiled in the background; you can watch the log.&lt;/li&gt;
&lt;li&gt;&lt;b&gt;Verify&lt;/b&gt; &amp;mdash; the result is tested against PyTorch. Only if it passes can you
install it, with a button that names the Python it goes into (&amp;ldquo;Install into &amp;hellip;&amp;rdquo;);
or you finish without installing.&lt;/li&gt;
&lt;/ol&gt;
&lt;p&gt;&lt;b&gt;What you need&lt;/b&gt;: an NVIDIA GPU with a current driver (without one you can still try the
CPU probe kernel), a Python environment (PyTorch can be installed for you), an internet
connection or a local copy of the kernel's source, and several GB of free disk space.
Nothing is changed in your Python environment until you confirm it: every fix asks first, and
the kernel is installed only when you click &amp;ldquo;Install into &amp;hellip;&amp;rdquo;.&lt;/p&gt;
</source>
      <translation>&lt;p&gt;本向导把一个快速注意力内核库（FlashAttention&amp;nbsp;2、FlashMLA，或小巧的&lt;i&gt;探测&lt;/i&gt;内核）安装到你选择的 Python 环境中，并证明它在你的 GPU 上计算正确。&lt;/p&gt;
&lt;p&gt;&lt;b&gt;将要进行的步骤&lt;/b&gt;&lt;/p&gt;
&lt;ol&gt;
&lt;li&gt;&lt;b&gt;硬件&lt;/b&gt; &amp;mdash; 检测你的 NVIDIA GPU、驱动、内存和磁盘，并由你选择要安装到的 Python 环境。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;前提条件&lt;/b&gt; &amp;mdash; 检查编译器、CUDA 工具包和其他要求；缺少什么，向导会提出修复。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;内核&lt;/b&gt; &amp;mdash; 你选择适合本机的内核和版本。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;编译&lt;/b&gt; &amp;mdash; 内核在后台编译；你可以查看日志。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;验证&lt;/b&gt; &amp;mdash; 用 PyTorch 检验编译结果。只有通过后你才能安装它，安装按钮会写明要安装到的 Python（&amp;ldquo;安装到 &amp;hellip;&amp;rdquo;）；你也可以不安装直接结束。&lt;/li&gt;
&lt;/ol&gt;
&lt;p&gt;&lt;b&gt;你需要&lt;/b&gt;：一块装有较新驱动的 NVIDIA GPU（没有的话，仍可试用 CPU 版的探测内核）、一个 Python 环境（可以为你安装 PyTorch）、网络连接或内核源码的本地副本，以及几 GB 的可用磁盘空间。
在你确认之前，你的 Python 环境不会有任何改动：每项修复都会先询问你，而内核只有在你点击&amp;ldquo;安装到 &amp;hellip;&amp;rdquo;时才会安装。&lt;/p&gt;
</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="132" />
      <source>A .tar.gz or .zip of the kernel's source</source>
      <translation>内核源码的 .tar.gz 或 .zip 压缩包</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="128" />
      <source>A folder with the kernel's source (a git checkout or an unpacked archive)</source>
      <translation>包含内核源码的文件夹（git 检出或解压后的压缩包）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="96" />
      <source>A matching prebuilt wheel exists</source>
      <translation>有匹配的预编译 wheel</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="61" />
      <source>Apply patches</source>
      <translation>应用补丁</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="39" />
      <source>Architecture</source>
      <translation>架构</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="131" />
      <source>Archive…</source>
      <translation>压缩包…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="170" />
      <source>Back to the Prerequisites page, where the Fix buttons are; the kernel list is checked again when you return</source>
      <translation>返回“前置条件”页面，那里有“修复”按钮；返回后会重新检查内核列表</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="50" />
      <source>Blocked</source>
      <translation>受阻</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="229" />
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="147" />
      <source>Build</source>
      <translation>编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="183" />
      <source>Build again</source>
      <translation>重新编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="130" />
      <source>Build for:</source>
      <translation>编译目标：</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="97" />
      <source>Build from source</source>
      <translation>从源码编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="573" />
      <source>Build in WSL2</source>
      <translation>在 WSL2 中编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="152" />
      <source>Bundled with the wizard: nothing to download.</source>
      <translation>随向导附带：无需下载。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="210" />
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="181" />
      <source>Cancel build</source>
      <translation>取消编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="136" />
      <source>Check all again</source>
      <translation>全部重新检查</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="194" />
      <source>Checking what a build needs…</source>
      <translation>正在检查编译所需的条件…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="83" />
      <source>Choose the kernel library to install. Each one says whether it fits this computer and, if not, exactly why.</source>
      <translation>选择要安装的内核库。每一项都会说明它是否适合这台电脑；如果不适合，会说明具体原因。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="343" />
      <source>Choose the kernel's source archive</source>
      <translation>选择内核的源码压缩包</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="314" />
      <source>Click Browse… and choose the python executable of the environment to use.</source>
      <translation>点击“浏览…”，选择要使用的环境中的 python 程序。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="62" />
      <source>Compile</source>
      <translation>编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="39" />
      <source>Compute capability</source>
      <translation>计算能力</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="403" />
      <source>Copied</source>
      <translation>已复制</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="133" />
      <source>Copied to the clipboard.</source>
      <translation>已复制到剪贴板。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="180" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="165" />
      <source>Copy the commands</source>
      <translation>复制命令</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="181" />
      <source>Copy the commands to the clipboard</source>
      <translation>把命令复制到剪贴板</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="55" />
      <source>Copy the lines shown to the clipboard</source>
      <translation>把显示的行复制到剪贴板</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="128" />
      <source>Details</source>
      <translation>详细信息</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="184" />
      <source>Detecting GPUs and Python environments…</source>
      <translation>正在检测显卡和 Python 环境…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="277" />
      <source>Detecting…</source>
      <translation>正在检测…</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="47" />
      <source>Done</source>
      <translation>完成</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="116" />
      <source>Download (git or source archive)</source>
      <translation>下载（git 或源码压缩包）</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="58" />
      <source>Download the prebuilt wheel</source>
      <translation>下载预编译的 wheel</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="120" />
      <source>Everything a build needs on this computer, checked. Where something is missing, the wizard can usually fix it for you.</source>
      <translation>已检查这台电脑上编译所需的一切。缺少的东西，向导通常可以帮你修复。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="52" />
      <source>Find</source>
      <translation>查找</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_list.py" line="35" />
      <source>Fits this computer?</source>
      <translation>适合这台电脑吗？</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="158" />
      <source>Fix</source>
      <translation>修复</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="127" />
      <source>Folder…</source>
      <translation>文件夹…</translation>
    </message>
    <message>
      <source>Free space…</source>
      <translation type="obsolete">释放空间…</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="60" />
      <source>Get the source</source>
      <translation>获取源码</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="375" />
      <source>Go back to the Hardware page and choose a Python environment.</source>
      <translation>请返回“硬件”页面并选择一个 Python 环境。</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="42" />
      <source>Hardware</source>
      <translation>硬件</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="322" />
      <source>Hardware detection failed unexpectedly.</source>
      <translation>硬件检测意外失败。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="165" />
      <source>How to build this kernel in WSL2 on this PC</source>
      <translation>如何在这台电脑的 WSL2 中编译这个内核</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="358" />
      <source>Install a kernel that failed verification?</source>
      <translation>安装一个没有通过验证的内核？</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="97" />
      <source>Install anyway…</source>
      <translation>仍然安装…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="215" />
      <source>Install into this Python environment</source>
      <translation>安装到这个 Python 环境</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="53" />
      <source>Keep the wizard open</source>
      <translation>保持向导打开</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_list.py" line="35" />
      <source>Kernel</source>
      <translation>内核</translation>
    </message>
    <message>
      <location filename="../../app/error_dialog.py" line="38" />
      <source>Kernel Setup Wizard</source>
      <translation>内核安装向导</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="82" />
      <source>Kernel and version</source>
      <translation>内核与版本</translation>
    </message>
    <message>
      <location filename="../../app/widgets/verify_results.py" line="31" />
      <source>Largest error</source>
      <translation>最大误差</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="63" />
      <source>Link</source>
      <translation>链接</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="117" />
      <source>Local folder or archive…</source>
      <translation>本地文件夹或压缩包…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="135" />
      <source>Look again (after you changed something yourself)</source>
      <translation>再检查一次（在你自己做了改动之后）</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="137" />
      <source>Look at everything again, e.g. after you installed something yourself</source>
      <translation>重新检查所有项目，例如在你自己安装了某些东西之后</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="117" />
      <source>Looking for CUDA toolkits…</source>
      <translation>正在查找 CUDA 工具包…</translation>
    </message>
    <message>
      <source>Measuring…</source>
      <translation type="obsolete">正在计算…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="40" />
      <source>Memory (free / total)</source>
      <translation>显存（可用 / 总计）</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="49" />
      <source>Missing</source>
      <translation>缺少</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="313" />
      <source>No Python interpreter was found.</source>
      <translation>没有找到 Python 解释器。</translation>
    </message>
    <message>
      <source>Not checked</source>
      <translation type="obsolete">未检查</translation>
    </message>
    <message>
      <source>Not checked yet</source>
      <translation type="obsolete">尚未检查</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="269" />
      <source>Not needed: the prebuilt wheel is installed as it is.</source>
      <translation>不需要：预编译的 wheel 会原样安装。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="46" />
      <source>OK</source>
      <translation>正常</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="64" />
      <source>Package the wheel</source>
      <translation>打包 wheel</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="47" />
      <source>Pending</source>
      <translation>待检查</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="119" />
      <source>Prerequisites</source>
      <translation>前置条件</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="52" />
      <source>Quit</source>
      <translation>退出</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="49" />
      <source>Quit without installing?</source>
      <translation>不安装就退出？</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="134" />
      <source>Re-check</source>
      <translation>重新检查</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="248" />
      <source>Reading the kernel catalog and looking for CUDA toolkits…</source>
      <translation>正在读取内核目录并查找 CUDA 工具包…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="507" />
      <source>Reinstall the wizard: its recipes are missing.</source>
      <translation>请重新安装本向导：它的配方文件缺失。</translation>
    </message>
    <message>
      <source>Remove old builds and downloaded sources that nothing uses any more (installed kernels, their backups and reports are kept).</source>
      <translation type="obsolete">删除不再使用的旧编译和已下载的源码（已安装的内核、它们的备份和报告会保留）。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="102" />
      <source>Remove this install and restore what was there before</source>
      <translation>移除这次安装，并恢复之前的内容</translation>
    </message>
    <message>
      <source>Removing…</source>
      <translation type="obsolete">正在删除…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/report_bundle.py" line="57" />
      <source>Report bundle not saved</source>
      <translation>报告包未保存</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="87" />
      <source>Restart Windows to finish. The wizard opens again by itself after the restart and continues here, where you left off.</source>
      <translation>请重启 Windows 以完成。重启后向导会自动重新打开，并从你离开的地方继续。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/verify_results.py" line="31" />
      <source>Result</source>
      <translation>结果</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="101" />
      <source>Roll back</source>
      <translation>回滚</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="386" />
      <source>Rolling back…</source>
      <translation>正在回滚…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/report_bundle.py" line="50" />
      <source>Save a report bundle</source>
      <translation>保存报告包</translation>
    </message>
    <message>
      <location filename="../../app/widgets/report_bundle.py" line="40" />
      <source>Save report bundle…</source>
      <translation>保存报告包…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="145" />
      <source>Save the build log</source>
      <translation>保存编译日志</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="58" />
      <source>Save the complete log to a file</source>
      <translation>把完整日志保存到文件</translation>
    </message>
    <message>
      <location filename="../../app/widgets/report_bundle.py" line="43" />
      <source>Save the logs, reports and a description of this computer in one zip file, to attach to a bug report</source>
      <translation>把日志、报告和这台电脑的描述保存到一个 ZIP 文件，用于附在问题报告中</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="141" />
      <source>Saved to {path}</source>
      <translation>已保存到 {path}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="57" />
      <source>Save…</source>
      <translation>保存…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="50" />
      <source>Search the log…</source>
      <translation>搜索日志…</translation>
    </message>
    <message>
      <location filename="../../app/error_dialog.py" line="45" />
      <source>Something went wrong inside the wizard: {error}</source>
      <translation>向导内部出了问题：{error}</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="344" />
      <source>Source archives (*.tar.gz *.tgz *.zip);;All files (*)</source>
      <translation>源码压缩包 (*.tar.gz *.tgz *.zip);;所有文件 (*)</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="40" />
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <location filename="../../app/widgets/steps.py" line="14" />
      <source>Steps</source>
      <translation>步骤</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="181" />
      <source>Stop and close?</source>
      <translation>停止并关闭？</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="344" />
      <source>Stopping the build and its compilers…</source>
      <translation>正在停止编译及其编译器进程…</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="59" />
      <source>Take the verified wheel from the cache</source>
      <translation>从缓存中取出已验证的 wheel</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="175" />
      <source>The NVIDIA GPUs and resources of this computer, and where to install.</source>
      <translation>这台电脑的 NVIDIA 显卡和资源，以及要安装到哪个环境。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="433" />
      <source>The build stopped unexpectedly.</source>
      <translation>编译意外停止。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="530" />
      <source>The environment could not be inspected.</source>
      <translation>无法检查这个环境。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="374" />
      <source>The hardware and the target Python are not known yet.</source>
      <translation>还不知道硬件和目标 Python 环境。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="344" />
      <source>The kernel catalog could not be read.</source>
      <translation>无法读取内核目录。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="506" />
      <source>The kernel catalog is empty.</source>
      <translation>内核目录是空的。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="182" />
      <source>The kernel is being verified or installed. Stop the verification and close the wizard? An install that has already begun is finished first, so your environment is never left half-installed.</source>
      <translation>正在验证或安装内核。要停止验证并关闭向导吗？已经开始的安装会先完成，你的环境绝不会处于半安装状态。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="148" />
      <source>The kernel is compiled into a wheel. Nothing is installed yet.</source>
      <translation>正在把内核编译成 wheel 包，暂不安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="50" />
      <source>The kernel was built (that took {took}) but it is not installed yet. If you quit now, the next run has to build it again.</source>
      <translation>内核已经编译好（用时 {took}），但还没有安装。如果现在退出，下次运行时需要重新编译。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="235" />
      <source>The prerequisites could not be checked.</source>
      <translation>无法检查前置条件。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/report_bundle.py" line="58" />
      <source>The report bundle could not be saved as {name}: {error}.

Choose another folder, e.g. your Documents or Desktop.</source>
      <translation>报告包无法保存为 {name}：{error}。

请选择其他文件夹，例如“文档”或“桌面”。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="208" />
      <source>This computer</source>
      <translation>这台电脑</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="359" />
      <source>This kernel did not compute correctly in the checks (or could not be checked). Programs that use it may give wrong results without any error.

Install it anyway? (The wizard keeps what it replaces, so you can roll back.)</source>
      <translation>这个内核在检查中计算结果不正确（或无法检查）。使用它的程序可能会在没有任何报错的情况下得到错误结果。

仍然要安装吗？（向导会保留被替换的内容，你可以回滚。）</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="195" />
      <source>This takes a few seconds.</source>
      <translation>这需要几秒钟。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="164" />
      <source>Use WSL2…</source>
      <translation>使用 WSL2…</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="46" />
      <source>Verify</source>
      <translation>验证</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="74" />
      <source>Verifying…</source>
      <translation>正在验证…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_list.py" line="35" />
      <source>Version</source>
      <translation>版本</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="48" />
      <source>Warning</source>
      <translation>警告</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="41" />
      <source>Welcome</source>
      <translation>欢迎</translation>
    </message>
    <message>
      <location filename="../../app/error_dialog.py" line="41" />
      <source>What to do: {hint}</source>
      <translation>怎么办：{hint}</translation>
    </message>
    <message>
      <location filename="../../app/widgets/verify_results.py" line="31" />
      <source>What was checked</source>
      <translation>检查内容</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="160" />
      <source>What will run</source>
      <translation>将要运行的命令</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="89" />
      <source>Windows will ask for administrator rights for this step only.</source>
      <translation>只有这一步 Windows 会请求管理员权限。</translation>
    </message>
    <message>
      <location filename="../../app/error_dialog.py" line="47" />
      <source>Your environment was not changed by this. You can go on; if it happens again, please report it with the details below.</source>
      <translation>这不会改动你的环境。你可以继续；如果再次出现，请附上下面的详细信息报告问题。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="174" />
      <source>Your hardware</source>
      <translation>你的硬件</translation>
    </message>
    <message>
      <location filename="../../app/widgets/report_bundle.py" line="51" />
      <source>Zip archives (*.zip)</source>
      <translation>ZIP 压缩包 (*.zip)</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="43" />
      <source>active virtual environment</source>
      <translation>当前激活的虚拟环境</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="70" />
      <source>cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="44" />
      <source>chosen by you</source>
      <translation>由你选择</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="68" />
      <source>done</source>
      <translation>完成</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="69" />
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="67" />
      <source>running…</source>
      <translation>进行中…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="43" />
      <source>the Python running this wizard</source>
      <translation>运行本向导的 Python</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="126" />
      <source>“{needle}” not found in the lines shown</source>
      <translation>在显示的行中没有找到“{needle}”</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="89" />
      <source>… {skipped} lines not shown here (the log file has them all) …</source>
      <translation>… 这里有 {skipped} 行没有显示（日志文件中有全部内容）…</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="394" />
      <source>↩ Rolled back: the environment is as it was before.</source>
      <translation>↩ 已回滚：环境已恢复到之前的状态。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="376" />
      <source>⚠ Installed although the verification failed.</source>
      <translation>⚠ 虽然验证失败，仍已安装。</translation>
    </message>
  </context>
</TS>
