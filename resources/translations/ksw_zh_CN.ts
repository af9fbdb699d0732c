<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
  <context>
    <name>Build</name>
    <message>
      <location filename="../../app/pages/build.py" line="84" />
      <source>Click “Build again” to start it over, or Back to choose something else.</source>
      <translation>点击“重新编译”重新开始，或点击“上一步”选择其他内容。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="69" />
      <source>Compiling one file at a time: this computer's processor and memory allow no more. The details are under “What will run”.</source>
      <translation>每次编译一个文件：这台电脑的处理器和内存只允许这么多。详细信息见“将要运行的命令”。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="71" />
      <source>Compiling {jobs} files at a time: as many as this computer's processor and memory allow. The details are under “What will run”.</source>
      <translation>每次同时编译 {jobs} 个文件：这是这台电脑的处理器和内存允许的最大数量。详细信息见“将要运行的命令”。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="77" />
      <source>Keep building</source>
      <translation>继续编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="82" />
      <source>Stop and close</source>
      <translation>停止并关闭</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="76" />
      <source>Stop the build</source>
      <translation>停止编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="78" />
      <source>Stop the build and close the wizard?</source>
      <translation>停止编译并关闭向导？</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="74" />
      <source>Stop the build now? Everything compiled so far is discarded. Nothing has been installed, so your Python environment stays as it is.</source>
      <translation>现在停止编译吗？已编译的部分会被丢弃。还没有安装任何东西，你的 Python 环境保持不变。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="73" />
      <source>Stop the build?</source>
      <translation>停止编译？</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="79" />
      <source>The build is still running. Stop it and close the wizard? Everything compiled so far is discarded. Nothing has been installed, so your Python environment stays as it is.</source>
      <translation>编译仍在进行。要停止编译并关闭向导吗？已编译的部分会被丢弃。还没有安装任何东西，你的 Python 环境保持不变。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="83" />
      <source>The build was cancelled; nothing was installed.</source>
      <translation>编译已取消，没有安装任何东西。</translation>
    </message>
  </context>
  <context>
    <name>Done</name>
    <message>
      <location filename="../../app/pages/done.py" line="41" />
      <source>&lt;p&gt;&lt;b&gt;Installed {name} {version}&lt;/b&gt; into &lt;code&gt;{python}&lt;/code&gt;.&lt;/p&gt;</source>
      <translation>&lt;p&gt;&lt;b&gt;已将 {name} {version} 安装&lt;/b&gt;到 &lt;code&gt;{python}&lt;/code&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="52" />
      <source>&lt;p&gt;All logs: &lt;code&gt;{logs}&lt;/code&gt;&lt;br&gt;All reports: &lt;code&gt;{reports}&lt;/code&gt;&lt;br&gt;Install records: &lt;code&gt;{installs}&lt;/code&gt;&lt;/p&gt;</source>
      <translation>&lt;p&gt;所有日志：&lt;code&gt;{logs}&lt;/code&gt;&lt;br&gt;所有报告：&lt;code&gt;{reports}&lt;/code&gt;&lt;br&gt;安装记录：&lt;code&gt;{installs}&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="50" />
      <source>&lt;p&gt;Build log: &lt;code&gt;{log}&lt;/code&gt;&lt;br&gt;All logs: &lt;code&gt;{logs}&lt;/code&gt;&lt;br&gt;All reports: &lt;code&gt;{reports}&lt;/code&gt;&lt;br&gt;Install records: &lt;code&gt;{installs}&lt;/code&gt;&lt;/p&gt;</source>
      <translation>&lt;p&gt;编译日志：&lt;code&gt;{log}&lt;/code&gt;&lt;br&gt;所有日志：&lt;code&gt;{logs}&lt;/code&gt;&lt;br&gt;所有报告：&lt;code&gt;{reports}&lt;/code&gt;&lt;br&gt;安装记录：&lt;code&gt;{installs}&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="42" />
      <source>&lt;p&gt;It replaced {name} {version}, kept in &lt;code&gt;{folder}&lt;/code&gt; so that it can be restored.&lt;/p&gt;</source>
      <translation>&lt;p&gt;它替换了 {name} {version}，旧版本保存在 &lt;code&gt;{folder}&lt;/code&gt;，可以恢复。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="45" />
      <source>&lt;p&gt;Its verification did &lt;b&gt;not&lt;/b&gt; pass: it was installed because you chose to.&lt;/p&gt;</source>
      <translation>&lt;p&gt;它&lt;b&gt;没有&lt;/b&gt;通过验证：是按你的选择安装的。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="44" />
      <source>&lt;p&gt;Its verification passed.&lt;/p&gt;</source>
      <translation>&lt;p&gt;它通过了验证。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="49" />
      <source>&lt;p&gt;Nothing was installed. Your Python environment is as it was.&lt;/p&gt;</source>
      <translation>&lt;p&gt;没有安装任何东西。你的 Python 环境保持原样。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="47" />
      <source>&lt;p&gt;The installed kernels were checked again; the Verify step showed the results.&lt;/p&gt;</source>
      <translation>&lt;p&gt;已重新检查已安装的内核；结果显示在“验证”步骤中。&lt;/p&gt;</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="59" />
      <source>After you update the NVIDIA driver or PyTorch, check that the kernel still works: open this wizard again and choose “Check the installed kernels again” on its first page. It compares the results with today's and names anything that changed. (From a terminal: python -m app --verify)</source>
      <translation>更新 NVIDIA 驱动或 PyTorch 之后，请检查内核是否仍然可用：再次打开本向导，在第一页选择“重新检查已安装的内核”。它会把结果与今天的结果比较，并指出任何变化。（在终端中：python -m app --verify）</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="58" />
      <source>Checking again later</source>
      <translation>以后再次检查</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="63" />
      <source>Create a “{name}” shortcut</source>
      <translation>创建“{name}”快捷方式</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="37" />
      <source>Done</source>
      <translation>完成</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="40" />
      <source>Nothing was installed.</source>
      <translation>没有安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="56" />
      <source>Open the folder</source>
      <translation>打开文件夹</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="55" />
      <source>Open the report</source>
      <translation>打开报告</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="64" />
      <source>Puts a shortcut in the applications menu and on the desktop that opens this wizard straight at the check.</source>
      <translation>在应用程序菜单和桌面上放一个快捷方式，直接打开向导的检查步骤。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="66" />
      <source>Shortcut created.</source>
      <translation>快捷方式已创建。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="57" />
      <source>The folder with the reports and logs: {folder}</source>
      <translation>报告和日志所在的文件夹：{folder}</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="39" />
      <source>The installed kernels were checked again.</source>
      <translation>已重新检查已安装的内核。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="38" />
      <source>The kernel is installed.</source>
      <translation>内核已安装。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="67" />
      <source>The shortcut could not be created.</source>
      <translation>无法创建快捷方式。</translation>
    </message>
    <message>
      <location filename="../../app/pages/done.py" line="54" />
      <source>Where the files are</source>
      <translation>文件在哪里</translation>
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
      <location filename="../../app/widgets/error_chart.py" line="25" />
      <source>speed compared with PyTorch's built-in attention (right of 1× is faster)</source>
      <translation>与 PyTorch 内置注意力相比的速度（1× 右侧表示更快）</translation>
    </message>
  </context>
  <context>
    <name>Hardware</name>
    <message>
      <location filename="../../app/pages/hardware.py" line="43" />
      <source>Choose the Python program of the environment</source>
      <translation>选择该环境的 Python 程序</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="42" />
      <source>Disk: {free} free for builds (in {folder})</source>
      <translation>磁盘：{free} 可用于编译（位于 {folder}）</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="46" />
      <source>Install pip</source>
      <translation>安装 pip</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="49" />
      <source>Install pip?</source>
      <translation>安装 pip？</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="48" />
      <source>Installing pip into {python}…</source>
      <translation>正在把 pip 安装到 {python}…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="52" />
      <source>Not now</source>
      <translation>暂不</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="45" />
      <source>Python programs (python python3 python3.*);;All files (*)</source>
      <translation>Python 程序 (python python3 python3.*);;所有文件 (*)</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="44" />
      <source>Python programs (python.exe pythonw.exe);;All files (*)</source>
      <translation>Python 程序 (python.exe pythonw.exe);;所有文件 (*)</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="47" />
      <source>Python's own installer of pip (ensurepip); nothing is downloaded</source>
      <translation>使用 Python 自带的 pip 安装器（ensurepip）；无需下载</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="50" />
      <source>{description}

This will run:
    {command}</source>
      <translation>{description}

将要运行：
    {command}</translation>
    </message>
  </context>
  <context>
    <name>Verify</name>
    <message>
      <location filename="../../app/pages/verify.py" line="101" />
      <source>Changed since the last passing verification: {changes}.</source>
      <translation>自上次通过验证以来的变化：{changes}。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="72" />
      <source>Check the installed kernels again</source>
      <translation>重新检查已安装的内核</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="92" />
      <source>Copied</source>
      <translation>已复制</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="91" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="84" />
      <source>Details</source>
      <translation>详细信息</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="95" />
      <source>Installs recorded in {path}.</source>
      <translation>安装记录保存在 {path}。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="76" />
      <source>Its results are compared with PyTorch's, forward and backward. Nothing is installed unless every check passes.</source>
      <translation>把它的前向和反向计算结果与 PyTorch 的结果比较。只有全部检查通过才会安装。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="88" />
      <source>Notes:</source>
      <translation>备注：</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="100" />
      <source>Nothing changed since the last passing verification.</source>
      <translation>自上次通过验证以来没有变化。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="96" />
      <source>Nothing to check yet: this wizard has not installed a kernel.</source>
      <translation>暂时没有可检查的内容：本向导还没有安装过内核。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="93" />
      <source>Open the report</source>
      <translation>打开报告</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="85" />
      <source>Python: {python}</source>
      <translation>Python：{python}</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="86" />
      <source>Report: {report}</source>
      <translation>报告：{report}</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="89" />
      <source>Speed</source>
      <translation>速度</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="94" />
      <source>Testing the kernels this wizard installed again…</source>
      <translation>正在重新测试本向导安装的内核…</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="75" />
      <source>Testing {wheel}…</source>
      <translation>正在测试 {wheel}…</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="71" />
      <source>The kernel is tested against PyTorch before anything is installed.</source>
      <translation>在安装任何东西之前，先用 PyTorch 测试这个内核。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="73" />
      <source>The kernels this wizard installed are tested against PyTorch again, and compared with their last passing check.</source>
      <translation>用 PyTorch 再次测试本向导安装的内核，并与它们上一次通过的检查结果比较。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="102" />
      <source>There is no earlier passing verification to compare with.</source>
      <translation>没有更早的通过验证可供比较。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="103" />
      <source>These checks passed before and fail now: {checks}.</source>
      <translation>这些检查以前通过，现在失败：{checks}。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="90" />
      <source>Use it in your code</source>
      <translation>在你的代码中使用</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="70" />
      <source>Verify</source>
      <translation>验证</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="87" />
      <source>What failed:</source>
      <translation>失败的项目：</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="82" />
      <source>You can build it again, save a report bundle for a bug report, or install it anyway (not recommended).</source>
      <translation>你可以重新编译、保存报告包用于问题报告，或者仍然安装（不推荐）。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="99" />
      <source>{kernel}: {sentence}</source>
      <translation>{kernel}：{sentence}</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="97" />
      <source>✔ PASS — all {n} installed kernel(s) work.</source>
      <translation>✔ 通过 — 全部 {n} 个已安装的内核工作正常。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="78" />
      <source>✔ PASS — the kernel works, and it is installed.</source>
      <translation>✔ 通过 — 内核工作正常，已安装。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="79" />
      <source>✔ PASS — the kernel works.</source>
      <translation>✔ 通过 — 内核工作正常。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="80" />
      <source>✖ FAIL — the kernel computes wrong results. It was not installed.</source>
      <translation>✖ 失败 — 内核计算结果错误，没有安装。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="98" />
      <source>✖ Something no longer works — see below.</source>
      <translation>✖ 有内核不再正常工作 — 见下文。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="81" />
      <source>✖ The kernel could not be checked, so it was not installed.</source>
      <translation>✖ 无法检查这个内核，因此没有安装。</translation>
    </message>
  </context>
  <context>
    <name>Welcome</name>
    <message>
      <location filename="../../app/pages/welcome.py" line="38" />
      <source>Check the installed kernels again (after a driver or PyTorch update)</source>
      <translation>重新检查已安装的内核（在更新驱动或 PyTorch 之后）</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="39" />
      <source>Checks {names} again and names anything that changed since the last passing check.</source>
      <translation>再次检查 {names}，并指出自上次通过检查以来的任何变化。</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="37" />
      <source>Install and verify a kernel</source>
      <translation>安装并验证一个内核</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="41" />
      <source>Nothing has been installed by this wizard yet. Once a kernel is installed and verified, come back here after driver or PyTorch updates to check it again.</source>
      <translation>本向导还没有安装任何东西。安装并验证内核之后，在更新驱动或 PyTorch 后回到这里重新检查。</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="36" />
      <source>Welcome to the Kernel Setup Wizard</source>
      <translation>欢迎使用内核安装向导</translation>
    </message>
  </context>
  <context>
    <name>ksw</name>
    <message>
      <location filename="../../app/pages/build.py" line="417" />
      <source>%v / %m</source>
      <translation>%v / %m</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="125" />
      <source>%v / %m units</source>
      <translation>%v / %m 个编译单元</translation>
    </message>
    <message>
      <location filename="../../app/pages/welcome.py" line="14" />
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
      <translation>&lt;p&gt;本向导把一个高速注意力内核库（FlashAttention&amp;nbsp;2、FlashMLA，或小型的 &lt;i&gt;probe&lt;/i&gt; 内核）安装到你选择的 Python 环境中，并证明它在你的显卡上计算正确。&lt;/p&gt;
&lt;p&gt;&lt;b&gt;接下来会发生什么&lt;/b&gt;&lt;/p&gt;
&lt;ol&gt;
&lt;li&gt;&lt;b&gt;硬件&lt;/b&gt; &amp;mdash; 检测你的 NVIDIA 显卡、驱动、内存和磁盘，并选择要安装到的 Python 环境。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;前置条件&lt;/b&gt; &amp;mdash; 检查编译器、CUDA 工具包和其他要求；缺少的东西，向导会提供修复。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;内核&lt;/b&gt; &amp;mdash; 选择适合你电脑的内核和版本。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;编译&lt;/b&gt; &amp;mdash; 在后台编译内核；你可以查看日志。&lt;/li&gt;
&lt;li&gt;&lt;b&gt;验证&lt;/b&gt; &amp;mdash; 在安装之前，用 PyTorch 测试编译结果。&lt;/li&gt;
&lt;/ol&gt;
&lt;p&gt;&lt;b&gt;你需要&lt;/b&gt;：一块装有最新驱动的 NVIDIA 显卡（没有显卡也可以试用 CPU 版 probe 内核）、一个 Python 环境（可以帮你安装 PyTorch）、网络连接或内核源码的本地副本，以及几 GB 的可用磁盘空间。在你确认之前，不会改动你电脑上的任何东西。&lt;/p&gt;
</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="82" />
      <source>A .tar.gz or .zip of the kernel's source</source>
      <translation>内核源码的 .tar.gz 或 .zip 压缩包</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="78" />
      <source>A folder with the kernel's source (a git checkout or an unpacked archive)</source>
      <translation>包含内核源码的文件夹（git 检出或解压后的压缩包）</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="46" />
      <source>A matching prebuilt wheel exists</source>
      <translation>有匹配的预编译 wheel</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="54" />
      <source>Apply patches</source>
      <translation>应用补丁</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="81" />
      <source>Archive…</source>
      <translation>压缩包…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="133" />
      <source>Back to the Prerequisites page, where the Fix buttons are; the kernel list is checked again when you return</source>
      <translation>返回“前置条件”页面，那里有“修复”按钮；返回后会重新检查内核列表</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="123" />
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="91" />
      <source>Build</source>
      <translation>编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="129" />
      <source>Build again</source>
      <translation>重新编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="110" />
      <source>Build for:</source>
      <translation>编译目标：</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="47" />
      <source>Build from source</source>
      <translation>从源码编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="514" />
      <source>Build in WSL2</source>
      <translation>在 WSL2 中编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="91" />
      <source>Bundled with the wizard: nothing to download.</source>
      <translation>随向导附带：无需下载。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="181" />
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="127" />
      <source>Cancel build</source>
      <translation>取消编译</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="110" />
      <source>Check all again</source>
      <translation>全部重新检查</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="178" />
      <source>Checking what a build needs…</source>
      <translation>正在检查编译所需的条件…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="68" />
      <source>Choose the kernel library to install. Each one says whether it fits this computer and, if not, exactly why.</source>
      <translation>选择要安装的内核库。每一项都会说明它是否适合这台电脑；如果不适合，会说明具体原因。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="204" />
      <source>Choose the kernel's source archive</source>
      <translation>选择内核的源码压缩包</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="200" />
      <source>Click Browse… and choose the python executable of the environment to use.</source>
      <translation>点击“浏览…”，选择要使用的环境中的 python 程序。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="55" />
      <source>Compile</source>
      <translation>编译</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="374" />
      <source>Copied</source>
      <translation>已复制</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="134" />
      <source>Copied to the clipboard.</source>
      <translation>已复制到剪贴板。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="151" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="110" />
      <source>Copy the commands</source>
      <translation>复制命令</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="152" />
      <source>Copy the commands to the clipboard</source>
      <translation>把命令复制到剪贴板</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="55" />
      <source>Copy the lines shown to the clipboard</source>
      <translation>把显示的行复制到剪贴板</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="99" />
      <source>Details</source>
      <translation>详细信息</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="82" />
      <source>Detecting GPUs and Python environments…</source>
      <translation>正在检测显卡和 Python 环境…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="167" />
      <source>Detecting…</source>
      <translation>正在检测…</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="49" />
      <source>Done</source>
      <translation>完成</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="66" />
      <source>Download (git or source archive)</source>
      <translation>下载（git 或源码压缩包）</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="52" />
      <source>Download the prebuilt wheel</source>
      <translation>下载预编译的 wheel</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="91" />
      <source>Everything a build needs on this computer, checked. Where something is missing, the wizard can usually fix it for you.</source>
      <translation>已检查这台电脑上编译所需的一切。缺少的东西，向导通常可以帮你修复。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="52" />
      <source>Find</source>
      <translation>查找</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="129" />
      <source>Fix</source>
      <translation>修复</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="77" />
      <source>Folder…</source>
      <translation>文件夹…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="121" />
      <source>Free space…</source>
      <translation>释放空间…</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="53" />
      <source>Get the source</source>
      <translation>获取源码</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="263" />
      <source>Go back to the Hardware page and choose a Python environment.</source>
      <translation>请返回“硬件”页面并选择一个 Python 环境。</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="44" />
      <source>Hardware</source>
      <translation>硬件</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="208" />
      <source>Hardware detection failed unexpectedly.</source>
      <translation>硬件检测意外失败。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="128" />
      <source>How to build this kernel in WSL2 on this PC</source>
      <translation>如何在这台电脑的 WSL2 中编译这个内核</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="435" />
      <source>Install a kernel that failed verification?</source>
      <translation>安装一个没有通过验证的内核？</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="139" />
      <source>Install anyway…</source>
      <translation>仍然安装…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="113" />
      <source>Install into this Python environment</source>
      <translation>安装到这个 Python 环境</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="55" />
      <source>Keep the wizard open</source>
      <translation>保持向导打开</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="46" />
      <source>Kernel</source>
      <translation>内核</translation>
    </message>
    <message>
      <location filename="../../app/error_dialog.py" line="38" />
      <source>Kernel Setup Wizard</source>
      <translation>内核安装向导</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="67" />
      <source>Kernel and version</source>
      <translation>内核与版本</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="56" />
      <source>Link</source>
      <translation>链接</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="67" />
      <source>Local folder or archive…</source>
      <translation>本地文件夹或压缩包…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="106" />
      <source>Look again (after you changed something yourself)</source>
      <translation>再检查一次（在你自己做了改动之后）</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="111" />
      <source>Look at everything again, e.g. after you installed something yourself</source>
      <translation>重新检查所有项目，例如在你自己安装了某些东西之后</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="97" />
      <source>Looking for CUDA toolkits…</source>
      <translation>正在查找 CUDA 工具包…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="40" />
      <source>Measuring…</source>
      <translation>正在计算…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="199" />
      <source>No Python interpreter was found.</source>
      <translation>没有找到 Python 解释器。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel_source.py" line="165" />
      <source>Not needed: the prebuilt wheel is installed as it is.</source>
      <translation>不需要：预编译的 wheel 会原样安装。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="57" />
      <source>Package the wheel</source>
      <translation>打包 wheel</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="90" />
      <source>Prerequisites</source>
      <translation>前置条件</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="54" />
      <source>Quit</source>
      <translation>退出</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="51" />
      <source>Quit without installing?</source>
      <translation>不安装就退出？</translation>
    </message>
    <message>
      <location filename="../../app/widgets/check_row.py" line="105" />
      <source>Re-check</source>
      <translation>重新检查</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="199" />
      <source>Reading the kernel catalog and looking for CUDA toolkits…</source>
      <translation>正在读取内核目录并查找 CUDA 工具包…</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="427" />
      <source>Reinstall the wizard: its recipes are missing.</source>
      <translation>请重新安装本向导：它的配方文件缺失。</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="30" />
      <source>Remove old builds and downloaded sources that nothing uses any more (installed kernels, their backups and reports are kept).</source>
      <translation>删除不再使用的旧编译和已下载的源码（已安装的内核、它们的备份和报告会保留）。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="144" />
      <source>Remove this install and restore what was there before</source>
      <translation>移除这次安装，并恢复之前的内容</translation>
    </message>
    <message>
      <location filename="../../app/widgets/free_space.py" line="88" />
      <source>Removing…</source>
      <translation>正在删除…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/report_bundle.py" line="57" />
      <source>Report bundle not saved</source>
      <translation>报告包未保存</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="143" />
      <source>Roll back</source>
      <translation>回滚</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="468" />
      <source>Rolling back…</source>
      <translation>正在回滚…</translation>
    </message>
    <message>
      <location filename="../../app/widgets/log_view.py" line="58" />
      <source>Save the complete log to a file</source>
      <translation>把完整日志保存到文件</translation>
    </message>
    <message>
      <location filename="../../app/widgets/report_bundle.py" line="43" />
      <source>Save the logs, reports and a description of this computer in one zip file, to attach to a bug report</source>
      <translation>把日志、报告和这台电脑的描述保存到一个 zip 文件，用于附在问题报告中</translation>
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
      <location filename="../../app/pages/kernel_source.py" line="205" />
      <source>Source archives (*.tar.gz *.tgz *.zip);;All files (*)</source>
      <translation>源码压缩包 (*.tar.gz *.tgz *.zip);;所有文件 (*)</translation>
    </message>
    <message>
      <location filename="../../app/widgets/steps.py" line="14" />
      <source>Steps</source>
      <translation>步骤</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="266" />
      <source>Stop and close?</source>
      <translation>停止并关闭？</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="289" />
      <source>Stopping the build and its compilers…</source>
      <translation>正在停止编译及其编译器进程…</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="73" />
      <source>The NVIDIA GPUs and resources of this computer, and where to install.</source>
      <translation>这台电脑的 NVIDIA 显卡和资源，以及要安装到哪个环境。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="382" />
      <source>The build stopped unexpectedly.</source>
      <translation>编译意外停止。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="359" />
      <source>The environment could not be inspected.</source>
      <translation>无法检查这个环境。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="262" />
      <source>The hardware and the target Python are not known yet.</source>
      <translation>还不知道硬件和目标 Python 环境。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="229" />
      <source>The kernel catalog could not be read.</source>
      <translation>无法读取内核目录。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="426" />
      <source>The kernel catalog is empty.</source>
      <translation>内核目录是空的。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="267" />
      <source>The kernel is being verified or installed. Stop the verification and close the wizard? An install that has already begun is finished first, so your environment is never left half-installed.</source>
      <translation>正在验证或安装内核。要停止验证并关闭向导吗？已经开始的安装会先完成，你的环境绝不会处于半安装状态。</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="92" />
      <source>The kernel is compiled into a wheel. Nothing is installed yet.</source>
      <translation>正在把内核编译成 wheel 包，暂不安装任何东西。</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="52" />
      <source>The kernel was built (that took {took}) but it is not installed yet. If you quit now, the next run has to build it again.</source>
      <translation>内核已经编译好（用时 {took}），但还没有安装。如果现在退出，下次运行时需要重新编译。</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="223" />
      <source>The prerequisites could not be checked.</source>
      <translation>无法检查前置条件。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="106" />
      <source>This computer</source>
      <translation>这台电脑</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="436" />
      <source>This kernel did not compute correctly in the checks (or could not be checked). Programs that use it may give wrong results without any error.

Install it anyway? (The wizard keeps what it replaces, so you can roll back.)</source>
      <translation>这个内核在检查中计算结果不正确（或无法检查）。使用它的程序可能会在没有任何报错的情况下得到错误结果。

仍然要安装吗？（向导会保留被替换的内容，你可以回滚。）</translation>
    </message>
    <message>
      <location filename="../../app/pages/prereqs.py" line="179" />
      <source>This takes a few seconds.</source>
      <translation>这需要几秒钟。</translation>
    </message>
    <message>
      <location filename="../../app/pages/kernel.py" line="127" />
      <source>Use WSL2…</source>
      <translation>使用 WSL2…</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="48" />
      <source>Verify</source>
      <translation>验证</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="122" />
      <source>Verifying…</source>
      <translation>正在验证…</translation>
    </message>
    <message>
      <location filename="../../app/wizard.py" line="43" />
      <source>Welcome</source>
      <translation>欢迎</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="105" />
      <source>What will run</source>
      <translation>将要运行的命令</translation>
    </message>
    <message>
      <location filename="../../app/error_dialog.py" line="45" />
      <source>Your environment was not changed by this. You can go on; if it happens again, please report it with the details below.</source>
      <translation>这不会改动你的环境。你可以继续；如果再次出现，请附上下面的详细信息报告问题。</translation>
    </message>
    <message>
      <location filename="../../app/pages/hardware.py" line="72" />
      <source>Your hardware</source>
      <translation>你的硬件</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="63" />
      <source>cancelled</source>
      <translation>已取消</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="61" />
      <source>done</source>
      <translation>完成</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="62" />
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <location filename="../../app/pages/build.py" line="60" />
      <source>running…</source>
      <translation>进行中…</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="478" />
      <source>↩ Rolled back: the environment is as it was before.</source>
      <translation>↩ 已回滚：环境已恢复到之前的状态。</translation>
    </message>
    <message>
      <location filename="../../app/pages/verify.py" line="454" />
      <source>⚠ Installed although the verification failed.</source>
      <translation>⚠ 虽然验证失败，仍已安装。</translation>
    </message>
  </context>
</TS>
