; Meshwork.exe, the app's launcher: starts the bundled Node on the runtime with its console
; window hidden, passes on its own arguments, and exits. The shortcuts and the sign-in Run entry
; point here. An NSIS program rather than a .vbs run by wscript: Windows is retiring VBScript,
; policies often block it, and an .exe carries the app's icon and version into the taskbar.
;
; Compiled on Linux by windows-installer.mjs:
;   makensis -DOUTFILE=<exe> -DICON=<ico> -DVERSION=<x.y.z> -DFILE_VERSION=<x.y.z.0> launcher.nsi
Unicode true
SetCompressor zlib
Name "Meshwork"
OutFile "${OUTFILE}"
Icon "${ICON}"
RequestExecutionLevel user
SilentInstall silent

VIProductVersion "${FILE_VERSION}"
VIAddVersionKey "ProductName" "Meshwork"
VIAddVersionKey "FileDescription" "Meshwork"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "Meshwork"

!include "FileFunc.nsh"

Section
  ${GetParameters} $0
  SetOutPath "$EXEDIR"
  ClearErrors
  ; ShellExecute with SW_HIDE creates node.exe's console hidden: no black window beside the app.
  ExecShell "open" "$EXEDIR\node\node.exe" '"$EXEDIR\app\dist\desktop\src\runtime\main.js" $0' SW_HIDE
  IfErrors 0 +2
    MessageBox MB_OK|MB_ICONSTOP "Meshwork could not start: $EXEDIR\node\node.exe is missing or blocked. Install Meshwork again."
SectionEnd
