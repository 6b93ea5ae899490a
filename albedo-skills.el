;;; albedo-skills.el --- Albedo's Agent Skills through albedo-skills-ls  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, languages

;;; Commentary:

;; Diagnostics on every SKILL.md, slash-command completion, go to definition and quick fixes, from the
;; albedo-skills-ls language server, through eglot (and lsp-mode when it is installed).
;;
;; What this file provides, none of which needs markdown-mode (it is used when installed):
;; - `albedo-skills-file-mode' for SKILL.md files and `albedo-skills-chat-mode' for chat files
;;   (*.chat.md): both derive from `markdown-mode' when it is available, else from `text-mode';
;; - the server registered with eglot for those two modes (language ids "markdown" and "albedo-chat"),
;;   started by `eglot-ensure' when `albedo-skills-auto-start' is non-nil;
;; - a project rule: the nearest folder holding .agents or .albedo is the project (Emacs 28's project.el
;;   knows only version control, so without a .git eglot took the skill folder itself, and collisions
;;   between roots were missed);
;; - `albedo-skills-reload' (the server's skills.reload command) and the hook
;;   `albedo-skills-catalog-changed-functions' run after each discovery;
;; - an lsp-mode client, registered only if lsp-mode is loaded (see docs/editors.md).
;;
;; Setup:  (require 'albedo-skills)   ; with the folder of this file on `load-path'
;; Server: `albedo-skills-ls' on PATH (`pipx install .' in a clone), or set `albedo-skills-server-command'.

;;; Code:

(require 'cl-lib)
(require 'project)

(defgroup albedo-skills nil
  "Albedo's Agent Skills through the albedo-skills-ls language server."
  :group 'tools
  :prefix "albedo-skills-")

(defcustom albedo-skills-server-command '("albedo-skills-ls")
  "The server command and its arguments.
For example (\"/path/to/venv/bin/albedo-skills-ls\")."
  :type '(repeat string))

(defcustom albedo-skills-settings nil
  "The `albedoSkills' settings sent as initializationOptions, as a plist.
For example (:userRoots t :logLevel \"info\"); false is :json-false.
The security reading: (:security (:enable :json-false)) turns it off,
(:security (:disabledCodes [\"security-broad-tools\"])) one code.
Leave a key out to keep its default."
  :type 'plist)

(defcustom albedo-skills-auto-start t
  "Non-nil: start the server (`eglot-ensure') in SKILL.md and chat buffers."
  :type 'boolean)

;; BEGIN generated names: written by `python -m albedo_skills_ls.generate` from albedo_skills_ls/lsp/settings.py (the settings) and the engine's names; edit that, then run the command
(defconst albedo-skills-default-root-markers '(".agents" ".albedo" ".git")
  "What marks a workspace: the skill roots' first folders, and .git.")
(defconst albedo-skills-default-chat-file-regexp "\\(?:\\`\\|/\\)[^/]*\\.chat\\.md\\'"
  "The files the server calls chats by default: *.chat.md.")
(defconst albedo-skills-skill-file-regexp "/SKILL\\.md\\'")
(defconst albedo-skills-chat-language-id "albedo-chat"
  "The language id of chat buffers, a chat to the server by default.")
(defconst albedo-skills-catalog-changed "albedoSkills/catalogChanged")
;; END generated names

(defcustom albedo-skills-root-markers albedo-skills-default-root-markers
  "Files or folders whose nearest holder is a skill or chat buffer's project."
  :type '(repeat string))

(defcustom albedo-skills-chat-file-regexp albedo-skills-default-chat-file-regexp
  "File names opened in `albedo-skills-chat-mode'.
By default those the server calls chat buffers by default."
  :type 'regexp)

(defvar albedo-skills-catalog-changed-functions nil
  "Functions called with each albedoSkills/catalogChanged notification's params.
The params are a plist: :reason :enabled :skills :diagnostics.")

(defvar albedo-skills-last-catalog nil
  "The params of the last albedoSkills/catalogChanged notification.")

;;;; Modes

(defconst albedo-skills-parent-mode (if (require 'markdown-mode nil t) 'markdown-mode 'text-mode)
  "The parent of the skill and chat modes.
`markdown-mode' when it is installed, else `text-mode'.")

;; Defined at load time (not at compile time), so the parent is the one this Emacs has.
(dolist (mode '((albedo-skills-file-mode "Skill"
                 "Major mode for an Agent Skill's SKILL.md (Markdown with YAML frontmatter).")
                (albedo-skills-chat-mode "Albedo-Chat"
                 "Major mode for chat files: `/' at a message start completes the skills' commands.")))
  (eval `(define-derived-mode ,(nth 0 mode) ,albedo-skills-parent-mode ,(nth 1 mode) ,(nth 2 mode)
           (albedo-skills--managed-buffer))
        t)
  ;; text-mode has M-TAB (C-M-i) run ispell; here it completes the server's commands, fields and values
  (define-key (symbol-value (intern (format "%s-map" (nth 0 mode)))) (kbd "C-M-i") #'completion-at-point))

(declare-function albedo-skills-file-mode "albedo-skills")
(declare-function albedo-skills-chat-mode "albedo-skills")
(add-to-list 'auto-mode-alist (cons albedo-skills-skill-file-regexp #'albedo-skills-file-mode))
(add-to-list 'auto-mode-alist (cons albedo-skills-chat-file-regexp #'albedo-skills-chat-mode))

;;;; Project root

(defun albedo-skills-project-find (dir)
  "The project of DIR, as a transient project.
It is the nearest folder holding one of `albedo-skills-root-markers'.  The
home folder does not count: ~/.agents is a user root there, not a workspace."
  (let ((root nil))
    (dolist (marker albedo-skills-root-markers)
      (let ((found (locate-dominating-file dir marker)))
        (when (and found (or (null root) (> (length (expand-file-name found)) (length root))))
          (setq root (expand-file-name found)))))
    (when (and root (not (string= (file-name-as-directory root) (file-name-as-directory (expand-file-name "~")))))
      (cons 'transient root))))

(defun albedo-skills--managed-buffer ()
  "Set up a skill or chat buffer: its project rule, then the server."
  (add-hook 'project-find-functions #'albedo-skills-project-find nil t)
  (when (and albedo-skills-auto-start (fboundp 'eglot-ensure))
    (eglot-ensure)))

;;;; eglot

(defun albedo-skills--initialization-options ()
  "The initializationOptions: only what `albedo-skills-settings' sets.
Nothing set is an empty object, so every default is the server's own
(docs/design.md#12-settings-one-declaration); no copy of them lives here."
  (list :albedoSkills (or albedo-skills-settings (make-hash-table))))

(defun albedo-skills--contact (&optional _interactive)
  "The eglot contact: the server command and the initializationOptions."
  (append albedo-skills-server-command
          (list :initializationOptions (albedo-skills--initialization-options))))

(declare-function eglot-current-server "eglot")
(declare-function eglot-execute-command "eglot")
(declare-function eglot-execute "eglot")

(with-eval-after-load 'eglot
  (defvar eglot-server-programs)
  (add-to-list 'eglot-server-programs
               (cons `((albedo-skills-file-mode :language-id "markdown")
                       (albedo-skills-chat-mode :language-id ,albedo-skills-chat-language-id))
                     #'albedo-skills--contact))
  (cl-defmethod eglot-handle-notification
    (_server (_method (eql 'albedoSkills/catalogChanged)) &rest params)
    "Keep the catalog's summary and run `albedo-skills-catalog-changed-functions'."
    (setq albedo-skills-last-catalog params)
    (run-hook-with-args 'albedo-skills-catalog-changed-functions params)))

(defun albedo-skills--as-eglot-gives (value)
  "VALUE, parsed by lsp-mode (objects as hash tables), as eglot gives it.
Objects become plists with keyword keys, so the catalog hook sees the
same params under either client."
  (cond ((hash-table-p value)
         (let (plist)
           (maphash (lambda (key item)
                      (setq plist (plist-put plist (intern (concat ":" key)) (albedo-skills--as-eglot-gives item))))
                    value)
           plist))
        ((vectorp value) (vconcat (mapcar #'albedo-skills--as-eglot-gives value)))
        (t value)))

(declare-function lsp-send-execute-command "lsp-mode")

(defun albedo-skills-reload ()
  "Discover the skills again (the server's skills.reload command).
Changes made outside Emacs are seen when file watching reports them,
or by this command.  Works under eglot and under lsp-mode; says how
many skills there are, and returns the server's summary as a plist."
  (interactive)
  (let ((summary
         (albedo-skills--as-eglot-gives
          (if (bound-and-true-p lsp-mode)
              (lsp-send-execute-command "skills.reload" [])
            (let ((server (and (fboundp 'eglot-current-server) (eglot-current-server))))
              (unless server
                (user-error "No albedo-skills-ls server manages this buffer"))
              (if (fboundp 'eglot-execute)      ; eglot 1.14+
                  (eglot-execute server (list :command "skills.reload" :arguments []))
                (eglot-execute-command server "skills.reload" [])))))))
    (when (plist-get summary :skills)
      (message "albedo-skills: %s skills after the reload" (plist-get summary :skills)))
    summary))

;;;; lsp-mode (only when it is installed; tests/clients/test_lsp_mode.py)

(declare-function lsp-register-client "lsp-mode")
(declare-function make-lsp-client "lsp-mode")
(declare-function lsp-stdio-connection "lsp-mode")
(defvar lsp-language-id-configuration)

(with-eval-after-load 'lsp-mode
  (add-to-list 'lsp-language-id-configuration (cons 'albedo-skills-chat-mode albedo-skills-chat-language-id))
  (add-to-list 'lsp-language-id-configuration '(albedo-skills-file-mode . "markdown"))
  (lsp-register-client
   (make-lsp-client
    :server-id 'albedo-skills
    :new-connection (lsp-stdio-connection (lambda () albedo-skills-server-command))
    :major-modes '(albedo-skills-file-mode albedo-skills-chat-mode)
    :initialization-options #'albedo-skills--initialization-options
    :notification-handlers
    (let ((handlers (make-hash-table :test #'equal)))
      (puthash albedo-skills-catalog-changed
               (lambda (_workspace params)
                 (setq albedo-skills-last-catalog (albedo-skills--as-eglot-gives params))
                 (run-hook-with-args 'albedo-skills-catalog-changed-functions albedo-skills-last-catalog))
               handlers)
      handlers)
    :add-on? t)))

(provide 'albedo-skills)
;;; albedo-skills.el ends here
