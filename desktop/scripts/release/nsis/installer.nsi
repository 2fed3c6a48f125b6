; Meshwork-Desktop-v<version>.exe: the per-user Windows installer. No administrator rights: the
; app goes to %LOCALAPPDATA%\Programs\Meshwork, its shortcuts, Run entry and uninstall entry to
; the user's own Start menu, desktop and HKCU. The app keeps its data in %LOCALAPPDATA%\Meshwork,
; which the uninstaller removes only when asked.
;
; Compiled on Linux by windows-installer.mjs:
;   makensis -DSOURCE=<staged tree> -DOUTFILE=<exe> -DICON=<ico> -DVERSION=<x.y.z> -DFILE_VERSION=<x.y.z.0> installer.nsi
Unicode true
ManifestDPIAware true
; zlib, measured on two cores for the 164 MB tree: zlib 66 MB in 17 s, bzip2 60 MB in 15 s, LZMA
; 48 MB in 4 min (solid, 45 MB in 3 min). zlib unpacks fastest, and its compiled script stays plain
; deflate, which the tests read. -DCOMPRESSOR="bzip2" (for instance) compiles with another.
!ifndef COMPRESSOR
  !define COMPRESSOR "zlib"
!endif
SetCompressor ${COMPRESSOR}

!define APP "Meshwork"
!define RUN_KEY "Software\Microsoft\Windows\CurrentVersion\Run"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Meshwork"
!define DATA_DIR "$LOCALAPPDATA\Meshwork"

Name "${APP}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
; Fixed, no directory page: the uninstaller deletes only what it knows, and a chosen folder could
; be the data folder itself.
InstallDir "$LOCALAPPDATA\Programs\Meshwork"
BrandingText "${APP} ${VERSION}"

VIProductVersion "${FILE_VERSION}"
VIAddVersionKey "ProductName" "${APP}"
VIAddVersionKey "FileDescription" "${APP} ${VERSION} setup"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "${APP}"

!include "MUI2.nsh"
!include "FileFunc.nsh"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_COMPONENTSPAGE_NODESC
!define MUI_FINISHPAGE_RUN "$INSTDIR\Meshwork.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start Meshwork now"
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

; A running copy holds node.exe and onnxruntime.dll open, so neither an update nor the uninstaller
; could replace or delete them: stop the node.exe of this installation, and no other.
!macro StopMeshwork
  nsExec::Exec `powershell.exe -NoProfile -NonInteractive -Command "Get-Process node -ErrorAction SilentlyContinue | Where-Object { $$_.Path -eq (Join-Path $$env:LOCALAPPDATA 'Programs\Meshwork\node\node.exe') } | Stop-Process -Force"`
  Pop $0
!macroend

Section "Meshwork" SecApp
  SectionIn RO
  !insertmacro StopMeshwork
  ; An update replaces the app whole: no file of the old version stays behind.
  RMDir /r "$INSTDIR\app"
  RMDir /r "$INSTDIR\node"
  SetOutPath "$INSTDIR"
  File /r "${SOURCE}/*"
  WriteUninstaller "$INSTDIR\Uninstall.exe"

  CreateShortcut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\Meshwork.exe" "" "$INSTDIR\Meshwork.exe" 0
  CreateShortcut "$DESKTOP\${APP}.lnk" "$INSTDIR\Meshwork.exe" "" "$INSTDIR\Meshwork.exe" 0
  ; Written again by the next section only if it is still chosen.
  DeleteRegValue HKCU "${RUN_KEY}" "${APP}"

  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "${APP}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\Meshwork.exe"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\Uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\Uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" $0
SectionEnd

; Chosen by default: a device of the customer's network serves it only while it runs. At sign-in
; it starts without opening its window (--no-open); the shortcuts open the running one's window.
Section "Start Meshwork when I sign in" SecRunAtSignIn
  WriteRegStr HKCU "${RUN_KEY}" "${APP}" '"$INSTDIR\Meshwork.exe" --no-open'
SectionEnd

Section "Uninstall"
  ; Asked first, while nothing is gone yet. A silent uninstall (/S) keeps the data.
  StrCpy $1 "keep"
  MessageBox MB_YESNO|MB_ICONQUESTION|MB_DEFBUTTON2 "Also remove your Meshwork data?$\r$\n$\r$\nYour models, sign-in and API keys are in ${DATA_DIR}. Choose No to keep them for a later installation." /SD IDNO IDNO +2
    StrCpy $1 "remove"
  !insertmacro StopMeshwork

  DeleteRegValue HKCU "${RUN_KEY}" "${APP}"
  Delete "$SMPROGRAMS\${APP}.lnk"
  Delete "$DESKTOP\${APP}.lnk"
  RMDir /r "$INSTDIR\app"
  RMDir /r "$INSTDIR\node"
  Delete "$INSTDIR\Meshwork.exe"
  Delete "$INSTDIR\Uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"

  StrCmp $1 "remove" 0 +2
    RMDir /r "${DATA_DIR}"
SectionEnd
