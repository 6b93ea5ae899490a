;;; emacs_settings_probe.el --- What eglot sends albedo-skills-ls, for test_settings_sent.py  -*- lexical-binding: t; -*-

;; Runs as `emacs -Q --batch -l emacs_settings_probe.el'. Loads albedo-skills.el as a user's init would, with
;; the settings the test gives (`settings_form', an Emacs Lisp plist; none: the package left as installed),
;; opens one SKILL.md by C-x C-f under the client the test names (`client': eglot, started by the package's
;; `eglot-ensure', or lsp-mode, set up as docs/editors.md says, with `M-x lsp'), waits until the server has
;; announced its catalog (it asks for the settings before it discovers), then shuts the server down. The
;; server runs behind tests/clients/lsp_tap.py, which records what Emacs sent. Parameters: JSON in the file
;; named by $ALBEDO_EMACS_PARAMS.

(load (expand-file-name "emacs_driver_common.el" (file-name-directory load-file-name)) nil t)

(defun run-session ()
  (let ((lsp (equal (param 'client) "lsp-mode")))
    (when lsp
      (setq albedo-skills-auto-start nil))  ; lsp-mode starts the server, not eglot (docs/editors.md)
    (require 'albedo-skills)
    (require 'eglot)
    (when lsp
      (require 'lsp-mode)
      ;; the root prompt's answer (the package's project rule) without the prompt, kept out of the home folder
      (setq lsp-auto-guess-root t lsp-session-file (param 'lsp_session) lsp-enable-file-watchers nil))
    (when (param 'settings_form)
      (setq albedo-skills-settings (car (read-from-string (param 'settings_form)))))
    (let (catalogs)
      (add-hook 'albedo-skills-catalog-changed-functions (lambda (params) (push params catalogs)))
      (keys '("C-x C-f") (param 'file) '("RET"))
      (driver-note 'mode (symbol-name major-mode))
      (when lsp
        (keys '("M-x") "lsp" '("RET")))
      (driver-note 'announced (wait-until (lambda () catalogs)))
      (when lsp
        (lsp-workspace-shutdown (car (lsp-workspaces)))))))

(driver-finish #'run-session)
