;;; eglot_rename_driver.el --- Emacs + eglot driver for tests/clients/test_eglot_rename.py  -*- lexical-binding: t; -*-

;; Runs as `emacs -Q --batch -l eglot_rename_driver.el' in the rename workspace of tests/rename_world.py.
;; Loads albedo-skills.el and Debian's eglot as a user's init would, opens the chat file with C-x C-f, and
;; by keystrokes: M-? (xref-find-references) on `/demo', C-M-. (xref-find-apropos) for `dmo', and
;; M-x eglot-rename on `/demo'. What the user ends up with (the *xref* buffer's lines, the error eglot
;; shows, the chat buffer) is written as JSON. Every wait is on process output; the bound only turns a hang
;; into a recorded failure. Parameters: JSON in the file named by $ALBEDO_EMACS_PARAMS.

(load (expand-file-name "emacs_driver_common.el" (file-name-directory load-file-name)) nil t)

(defun xref-lines (action)
  "Run ACTION (keystrokes), then the lines of the *xref* buffer it fills."
  (when (get-buffer "*xref*") (kill-buffer "*xref*"))
  (funcall action)
  (wait-until (lambda () (get-buffer "*xref*")))
  (with-current-buffer "*xref*"
    (vconcat (split-string (buffer-substring-no-properties (point-min) (point-max)) "\n" t))))

(defun run-session ()
  (require 'albedo-skills)
  (require 'eglot)
  (let (catalogs)
    (add-hook 'albedo-skills-catalog-changed-functions (lambda (params) (push params catalogs)))
    (keys '("C-x C-f") (param 'chat) '("RET"))
    (let ((chat (current-buffer)))
      (driver-note 'managed (wait-until (lambda () (bound-and-true-p eglot--managed-mode))))
      (driver-note 'ready (wait-until (lambda () catalogs)))
      ;; M-? on `/demo' (line 1): every mention, in the *xref* buffer
      (goto-char (point-min))
      (forward-char 2)
      (driver-note 'references (xref-lines (lambda () (keys '("M-?")))))
      (pop-to-buffer chat)
      ;; C-M-. dmo RET: workspace symbols by subsequence
      (driver-note 'symbols (xref-lines (lambda () (keys '("C-M-.") "dmo" '("RET")))))
      (pop-to-buffer chat)
      ;; M-x eglot-rename RET showcase RET on `/demo': eglot 1.9 cannot rename a folder, the server says so
      (goto-char (point-min))
      (forward-char 2)
      (driver-note 'rename_error
                   (condition-case err
                       (progn (keys '("M-x") "eglot-rename" '("RET") "showcase" '("RET")) "no error")
                     (error (error-message-string err))))
      (driver-note 'chat_after (buffer-substring-no-properties (point-min) (point-max))))))

(condition-case err
    (run-session)
  (error (driver-note 'error (format "%S" err))))
(condition-case nil
    (maphash (lambda (_project servers) (mapc #'eglot-shutdown servers)) eglot--servers-by-project)
  (error nil))
(let ((json-encoding-pretty-print nil))
  (with-temp-file (param 'out) (insert (json-encode driver-result))))
(kill-emacs 0)
